// Canned observations: the example must work offline and give the same answer every time.
export type Observation = { city: string; tempC: number; condition: string; windKmh: number; humidity: number };

const OBSERVATIONS: Observation[] = [
  { city: "Berlin", tempC: 16, condition: "fog", windKmh: 9, humidity: 88 },
  { city: "London", tempC: 13, condition: "light rain", windKmh: 19, humidity: 81 },
  { city: "New York", tempC: 22, condition: "sunny", windKmh: 12, humidity: 54 },
  { city: "Tokyo", tempC: 25, condition: "partly cloudy", windKmh: 7, humidity: 63 },
  { city: "Sydney", tempC: 19, condition: "clear", windKmh: 15, humidity: 58 },
  { city: "Cairo", tempC: 31, condition: "sunny", windKmh: 11, humidity: 22 },
  { city: "Reykjavik", tempC: 4, condition: "snow showers", windKmh: 33, humidity: 76 },
];

export const CITIES = OBSERVATIONS.map((o) => o.city);

export function lookup(city: string): Observation | null {
  const key = city.trim().toLowerCase();
  return OBSERVATIONS.find((o) => o.city.toLowerCase() === key) ?? null;
}

export function describe(o: Observation, units: "metric" | "imperial"): string {
  const temp = units === "imperial" ? `${Math.round((o.tempC * 9) / 5 + 32)}°F` : `${o.tempC}°C`;
  const wind = units === "imperial" ? `${Math.round(o.windKmh / 1.609)} mph` : `${o.windKmh} km/h`;
  return `${o.city}: ${temp}, ${o.condition}, wind ${wind}, humidity ${o.humidity}%`;
}
