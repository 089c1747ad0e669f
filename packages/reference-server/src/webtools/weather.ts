/**
 * The `weather` webtool in two versions: 1.0.0 has `get_current`; 2.0.0 adds units and location
 * to its answer and a `get_forecast` action. Answers are computed from the location's name, so
 * they are the same on every run.
 */
import type { JsonObject } from '../jsonrpc.ts';

const CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    apiKey: { type: 'string', description: 'The key the weather service issued to you' },
    units: { type: 'string', enum: ['metric', 'imperial'] },
  },
  required: ['apiKey'],
};

const LOCATION = { type: 'string', description: 'City name, e.g. "Paris"' };

export const VERSIONS: Record<string, JsonObject> = {
  '1.0.0': {
    name: 'weather',
    description: 'Provides weather information',
    version: '1.0.0',
    actions: [
      {
        name: 'get_current',
        description: 'The current temperature and conditions at a location',
        requestSchema: {
          type: 'object',
          properties: { location: LOCATION },
          required: ['location'],
        },
        responseSchema: {
          type: 'object',
          properties: { temperature: { type: 'number' }, conditions: { type: 'string' } },
          required: ['temperature', 'conditions'],
        },
      },
    ],
    configSchema: CONFIG_SCHEMA,
    defaultConfig: { units: 'metric' },
  },
  '2.0.0': {
    name: 'weather',
    description: 'Provides weather information and forecasts',
    version: '2.0.0',
    actions: [
      {
        name: 'get_current',
        description: 'The current weather at a location, in the configured units',
        requestSchema: {
          type: 'object',
          properties: { location: LOCATION },
          required: ['location'],
        },
        responseSchema: {
          type: 'object',
          properties: {
            location: { type: 'string' },
            temperature: { type: 'number' },
            units: { type: 'string' },
            conditions: { type: 'string' },
          },
          required: ['location', 'temperature', 'units', 'conditions'],
        },
      },
      {
        name: 'get_forecast',
        description: 'Daily highs and lows for the next days',
        requestSchema: {
          type: 'object',
          properties: { location: LOCATION, days: { type: 'integer', minimum: 1, maximum: 7 } },
          required: ['location', 'days'],
        },
        responseSchema: {
          type: 'object',
          properties: { location: { type: 'string' }, days: { type: 'array' } },
          required: ['location', 'days'],
        },
      },
    ],
    configSchema: CONFIG_SCHEMA,
    defaultConfig: { units: 'metric' },
  },
};

export const LATEST = '2.0.0';

const CONDITIONS = ['sunny', 'partly cloudy', 'overcast', 'light rain', 'windy'];

function seed(location: string): number {
  let hash = 0;
  for (const char of location) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 1000;
  return hash;
}

function temperature(celsius: number, units: string): number {
  return units === 'imperial' ? Math.round(celsius * 1.8 + 32) : celsius;
}

/** Runs an action of a version whose request and config have been checked. */
export function run(
  version: string,
  action: string,
  request: JsonObject,
  config: JsonObject,
): JsonObject {
  const location = String(request['location']);
  const units = String(config['units'] ?? 'metric');
  const base = seed(location);
  const celsius = (base % 30) - 5;
  const conditions = CONDITIONS[base % CONDITIONS.length] ?? 'sunny';
  if (action === 'get_forecast') {
    const days = Array.from({ length: Number(request['days']) }, (_, day) => ({
      day: day + 1,
      high: temperature(celsius + 3 + (day % 3), units),
      low: temperature(celsius - 4 + (day % 2), units),
    }));
    return { location, days };
  }
  if (version === '1.0.0') return { temperature: temperature(celsius, units), conditions };
  return { location, temperature: temperature(celsius, units), units, conditions };
}
