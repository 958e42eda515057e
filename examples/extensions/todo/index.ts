// A persistent todo list: /todo opens an interactive panel, the `todo` tool lets the model manage the
// same list. State lives in todos.json in the data_dir the host names in hello_ack.
import { Extension, display, openPanel, text } from "../../../sdk/typescript/src/index.ts";
import { PANEL_ID, TodoPanel } from "./panel.ts";
import { Store } from "./store.ts";

const ext = new Extension("todo", "1.0.0");
let store: Store | null = null;
let panel: TodoPanel | null = null;
/** Renders are only sent while the panel is open; a tool call with the panel closed just saves. */
let panelOpen = false;

ext.onHello((host) => {
  store = new Store(host.dataDir || process.cwd());
  panel = new TodoPanel(store);
});

ext.command("todo", "open the todo list (or /todo <text> to add one)", (args) => {
  if (!store || !panel) return display("todo: not initialised");
  if (args) {
    store.add(args);
    return display(`added: ${args}`);
  }
  panelOpen = true;
  return openPanel({ id: PANEL_ID, ...panel.view() });
});

ext.onPanelKey((key) => {
  if (key.panelId !== PANEL_ID || !panel) return;
  // Esc cancels a draft; otherwise it closes (if the host passes Esc through rather than closing itself).
  const wasDrafting = panel.draft !== null;
  panel.key(key);
  if (key.key === "esc" && panel.draft === null && !wasDrafting) {
    panelOpen = false;
    ext.close(PANEL_ID);
    return;
  }
  ext.render(PANEL_ID, panel.view());
});

ext.onPanelResize(({ panelId, height }) => {
  if (panelId !== PANEL_ID || !panel) return;
  panel.height = height;
  if (panelOpen) ext.render(PANEL_ID, panel.view());
});

ext.onPanelClose((panelId) => {
  if (panelId !== PANEL_ID || !panel) return;
  panelOpen = false;
  panel.draft = null;
});

ext.tool(
  "todo_items",
  "Manage the user's persistent todo list. Actions: list; add (text); toggle, remove (number from list, 1-based).",
  {
    type: "object",
    properties: {
      action: { type: "string", enum: ["list", "add", "toggle", "remove"] },
      text: { type: "string", description: "for add" },
      number: { type: "integer", description: "for toggle/remove: the item's number in the list, from 1" },
    },
    required: ["action"],
  },
  (args) => {
    if (!store) return text("todo: not initialised", { isError: true });
    const index = typeof args.number === "number" ? args.number - 1 : -1;
    switch (args.action) {
      case "list":
        return text(store.list());
      case "add":
        if (typeof args.text !== "string" || !args.text.trim()) return text('"add" needs a non-empty "text".', { isError: true });
        store.add(args.text);
        break;
      case "toggle":
        if (!store.toggle(index)) return text(`There is no item number ${String(args.number)}.\n${store.list()}`, { isError: true });
        break;
      case "remove":
        if (!store.remove(index)) return text(`There is no item number ${String(args.number)}.\n${store.list()}`, { isError: true });
        break;
      default:
        return text(`Unknown action ${JSON.stringify(args.action)}; use list, add, toggle or remove.`, { isError: true });
    }
    if (panel && panelOpen) ext.render(PANEL_ID, panel.view());
    return text(store.list());
  },
);

void ext.run();
