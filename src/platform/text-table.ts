// Plain-text tables for the CLIs' list commands: each column padded to its widest cell, two spaces
// between columns, the last column left unpadded.

/** The header line, then one line per row, without newlines. */
export function tableLines(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  return [header, ...rows].map((cells) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join("  "));
}
