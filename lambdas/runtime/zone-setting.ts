import { distance } from 'fastest-levenshtein';

/**
 * What is wrong with a configured zone (`MERIDIAN_TIMEZONE`, `--timezone`), or undefined when the
 * runtime's Intl knows it. The one start-up check of both runtimes: it needs no luxon, which a
 * cold start does not load, and still suggests the closest names as core/time/zones.ts does for
 * tool input.
 *
 * @example
 * zoneProblem('MERIDIAN_TIMEZONE', 'Europe/Londn'); // '… did you mean Europe/London, …'
 */
export function zoneProblem(source: string, zone: string): string | undefined {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return undefined;
  } catch {
    return `${source} "${zone}" is not an IANA time zone (e.g. "Europe/Paris"); did you mean ${closestZones(zone).join(', ')}?`;
  }
}

function closestZones(input: string, limit = 3): string[] {
  const needle = input.trim().toLowerCase().replace(/\s+/g, '_');
  const city = (name: string) => name.slice(name.lastIndexOf('/') + 1);
  return [...Intl.supportedValuesOf('timeZone'), 'UTC']
    .map((name) => {
      const lower = name.toLowerCase();
      return { name, score: Math.min(distance(needle, lower), distance(city(needle), city(lower))) };
    })
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((scored) => scored.name);
}
