// Random hex names for temp files and session ids. Web Crypto instead of node:crypto: loading the
// node module costs startup time and memory on every run, and nothing here needs more than this.
export function randomHex(bytes: number): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  let out = "";
  // Not padStart: a JS-implemented builtin whose first use costs start-up memory.
  for (const b of buf) out += (b < 16 ? "0" : "") + b.toString(16);
  return out;
}
