// An LLM-callable tool with the TypeScript SDK. The data is canned (data.ts): no network, ever.
import { Extension, display, error, text } from "../../../sdk/typescript/src/index.ts";
import { CITIES, describe, lookup } from "./data.ts";

const ext = new Extension("weather", "1.0.0");

ext.tool(
  "weather",
  `Get the current weather for a city. Known cities: ${CITIES.join(", ")}.`,
  {
    type: "object",
    properties: {
      city: { type: "string", description: "city name, e.g. Berlin" },
      units: { type: "string", enum: ["metric", "imperial"], description: "default metric" },
    },
    required: ["city"],
  },
  (args) => {
    if (typeof args.city !== "string" || !args.city.trim()) return text('"city" must be a non-empty string.', { isError: true });
    const units = args.units === "imperial" ? "imperial" : "metric";
    const found = lookup(args.city);
    if (!found) return text(`No weather data for "${args.city}". Known cities: ${CITIES.join(", ")}.`, { isError: true });
    return text(describe(found, units));
  },
);

ext.command("weather", "show the weather for a city", (args) => {
  if (!args) return error(`usage: /weather <city> (known: ${CITIES.join(", ")})`);
  const found = lookup(args);
  return found ? display(describe(found, "metric")) : error(`no weather data for "${args}"`);
});

void ext.run();
