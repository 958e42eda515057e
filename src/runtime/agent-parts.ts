// What createRuntime (setup.ts) loads while the extensions start: the provider clients, the
// built-in tools and the runtime with its loop. Gathered behind one dynamic import because each
// import point of the build (--splitting) is a chunk boundary, and every chunk a run loads costs
// its own load and link: three import points here made the print path load more chunks for the same code.
export { createProvider } from "../agent/providers/index.ts";
export { selectTools } from "../agent/tools/index.ts";
export { Runtime } from "./runtime.ts";
