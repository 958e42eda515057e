// What the host writes down (trace lines, `[zot]` log lines, warnings, load errors) may quote frames,
// and frames carry whatever the model and the user typed — API keys included. The caller, which
// knows the secrets, hands the host a mask; the host applies it and knows nothing else of them.
export type Mask = (text: string) => string;

export const unmasked: Mask = (text) => text;
