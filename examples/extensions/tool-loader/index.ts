// Deferred tools: three utilities are registered with `deferred: true`, so the model does not see
// their schemas until it calls `load_tools`, whose result names them in `activate_tools`.
// This keeps rarely used tools out of every request's tool list.
import { createHash, randomUUID } from "node:crypto";
import { Extension, text } from "../../../sdk/typescript/src/index.ts";

const ext = new Extension("tool-loader", "1.0.0");

const DEFERRED = {
  uuid: "Generate random UUIDs (v4).",
  sha256: "SHA-256 hex digest of a UTF-8 string.",
  base64: "Encode a UTF-8 string to base64, or decode base64 to UTF-8.",
};

ext.tool(
  "load_tools",
  `Activate extra utility tools before using them. Available: ${Object.entries(DEFERRED)
    .map(([n, d]) => `${n} (${d})`)
    .join("; ")}`,
  {
    type: "object",
    properties: { names: { type: "array", items: { type: "string", enum: Object.keys(DEFERRED) }, description: "omit to load all" } },
  },
  (args) => {
    const wanted = Array.isArray(args.names) ? args.names.filter((n): n is string => typeof n === "string") : Object.keys(DEFERRED);
    const unknown = wanted.filter((n) => !(n in DEFERRED));
    if (unknown.length) return text(`Unknown tool(s): ${unknown.join(", ")}. Available: ${Object.keys(DEFERRED).join(", ")}.`, { isError: true });
    return text(`Loaded: ${wanted.join(", ")}. They can be called now.`, { activateTools: wanted });
  },
);

ext.tool(
  "uuid",
  DEFERRED.uuid,
  { type: "object", properties: { count: { type: "integer", minimum: 1, maximum: 20 } } },
  (args) => {
    const count = typeof args.count === "number" ? Math.min(20, Math.max(1, Math.floor(args.count))) : 1;
    return text(Array.from({ length: count }, () => randomUUID()).join("\n"));
  },
  { deferred: true },
);

ext.tool(
  "sha256",
  DEFERRED.sha256,
  { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  (args) => {
    if (typeof args.text !== "string") return text('"text" must be a string.', { isError: true });
    return text(createHash("sha256").update(args.text, "utf8").digest("hex"));
  },
  { deferred: true },
);

ext.tool(
  "base64",
  DEFERRED.base64,
  {
    type: "object",
    properties: { text: { type: "string" }, mode: { type: "string", enum: ["encode", "decode"] } },
    required: ["text", "mode"],
  },
  (args) => {
    if (typeof args.text !== "string") return text('"text" must be a string.', { isError: true });
    if (args.mode === "encode") return text(Buffer.from(args.text, "utf8").toString("base64"));
    if (args.mode === "decode") return text(Buffer.from(args.text, "base64").toString("utf8"));
    return text('"mode" must be "encode" or "decode".', { isError: true });
  },
  { deferred: true },
);

void ext.run();
