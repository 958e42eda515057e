// An LLM-callable tool with the TypeScript SDK. The data is canned (data.ts): no network, ever —
// and the manifest says so: its permissions allow no network, no programs and no files beyond its
// own directory, which holds the SDK too (zot-ext.js, bundled by scripts/vendor-sdk.ts). Its
// settings (`zot ext config weather units=imperial`) arrive in hello_ack and, when changed while
// zot runs, in settings_changed.
import { Extension, display, error, text } from "./zot-ext.js";
import { CITIES, describe, lookup } from "./data.ts";

const ext = new Extension("weather", "1.1.0");

/** The user's default units (`units` setting), unless the model asks for others. */
const defaultUnits = (): "metric" | "imperial" => (ext.host?.settings.units === "imperial" ? "imperial" : "metric");

ext.tool(
  "weather",
  `Get the current weather for a city. Known cities: ${CITIES.join(", ")}.`,
  {
    type: "object",
    properties: {
      city: { type: "string", description: "city name, e.g. Berlin" },
      units: { type: "string", enum: ["metric", "imperial"], description: "default: the user's units setting (metric unless changed)" },
    },
    required: ["city"],
  },
  (args) => {
    if (typeof args.city !== "string" || !args.city.trim()) return text('"city" must be a non-empty string.', { isError: true });
    const units = args.units === "imperial" || args.units === "metric" ? args.units : defaultUnits();
    const found = lookup(args.city);
    if (!found) return text(`No weather data for "${args.city}". Known cities: ${CITIES.join(", ")}.`, { isError: true });
    return text(describe(found, units));
  },
);

ext.command("weather", "show the weather for a city", (args) => {
  if (!args) return error(`usage: /weather <city> (known: ${CITIES.join(", ")})`);
  const found = lookup(args);
  return found ? display(describe(found, defaultUnits())) : error(`no weather data for "${args}"`);
});

void ext.run();
