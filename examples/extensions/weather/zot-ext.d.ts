// Types for zot-ext.js, the bundled SDK beside this file: the SDK's own, from the repository it came
// from. Only the type checker reads this; at run time the extension needs nothing outside its directory.
export * from "../../../sdk/typescript/src/index.ts";
