// The version printed by `zot --version` and sent in hello_ack. Importing package.json lets the
// bundler inline the one field at build time, so the compiled binary never reads the file.
import pkg from "../package.json" with { type: "json" };

export const ZOT_VERSION: string = pkg.version;
