// The agent knows the project, in a real terminal: AGENTS.md files listed at start, /init, `@path`
// attaching the file's content, and the file picker leaving ignored files out.
import { expect, test } from "bun:test";
import { useTmux } from "./helpers/tmux.ts";

const tui = useTmux();

const T = 30_000;

test(
  "the instruction files in use are listed at start",
  async () => {
    const t = await tui.start({ files: { "project/AGENTS.md": "Use tabs.", "home/AGENTS.md": "Be brief." } });
    const s = await t.waitFor("Project instructions:");
    expect(s).toContain(`${t.home}/AGENTS.md`);
    expect(s).toContain(`${t.cwd}/AGENTS.md`);
  },
  T,
);

test(
  "/init asks the model to study the project and write AGENTS.md",
  async () => {
    const t = await tui.start({ width: 160 });
    await t.waitFor("Ask anything");
    t.send("/init");
    await t.waitFor(`mock: Study this project and write ${t.cwd}/AGENTS.md`);
  },
  T,
);

test(
  "@path sends the file's content along with the prompt and says it was attached",
  async () => {
    const t = await tui.start({ files: { "project/notes.txt": "the secret word is parsnip\n" } });
    await t.waitFor("Ask anything");
    t.send("what does @notes.txt say");
    const s = await t.waitFor("the secret word is parsnip");
    expect(s).toContain("attached @notes.txt (27 bytes)");
    expect(s).toContain('<file path="notes.txt">');
  },
  T,
);

test(
  "the @ picker leaves out what .gitignore ignores and dependency directories",
  async () => {
    const t = await tui.start({
      files: {
        "project/.gitignore": "secret-*.txt\n",
        "project/secret-plan.txt": "x",
        "project/shown-plan.txt": "x",
        "project/node_modules/pkg/plan.txt": "x",
      },
    });
    await t.waitFor("Ask anything");
    t.type("@plan");
    const s = await t.waitFor("shown-plan.txt");
    expect(s).not.toContain("secret-plan.txt");
    expect(s).not.toContain("node_modules");
  },
  T,
);
