import { DomainError } from '../../errors.js';
import { echo } from '../../input-limits.js';
import type { WallClock } from './wall-clock.js';

/** ISO weekdays (Monday = 1 … Sunday = 7) that are not business days. */
export type Weekend = ReadonlySet<number>;

/** Saturday and Sunday: the weekend when neither the caller's days nor a locale say otherwise. */
export const SATURDAY_SUNDAY: Weekend = new Set([6, 7]);

const WEEKDAY_KEYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekdayKey = (typeof WEEKDAY_KEYS)[number];
export { WEEKDAY_KEYS };

/** What Intl.Locale offers for week data; `getWeekInfo()` in current engines, `weekInfo` before. */
interface LocaleWeekInfo {
  getWeekInfo?: () => { weekend: number[] };
  weekInfo?: { weekend: number[] };
}

/**
 * The weekend to count business days with: the days given, else the locale's weekend from CLDR
 * (through Intl, so it follows the runtime's ICU data: "ar-SA" and "he-IL" rest Friday–Saturday,
 * "fa-IR" Friday), else Saturday–Sunday. A week with no business day is refused.
 *
 * @example
 * weekendOf(undefined, 'he-IL'); // Set { 5, 6 }
 */
export function weekendOf(days: readonly WeekdayKey[] | undefined, locale: string | undefined): Weekend {
  if (days !== undefined) return checked(new Set(days.map((day) => WEEKDAY_KEYS.indexOf(day) + 1)));
  if (locale === undefined) return SATURDAY_SUNDAY;
  let info: { weekend: number[] } | undefined;
  try {
    const intl = new Intl.Locale(locale) as unknown as LocaleWeekInfo;
    info = intl.getWeekInfo?.() ?? intl.weekInfo;
  } catch {
    throw new DomainError(
      'INVALID_INPUT',
      `${echo(locale)} is not a BCP 47 locale. Use one such as "en-US", "he-IL" or "ar-SA", or give the weekend days.`,
      { field: 'locale' },
    );
  }
  return info === undefined ? SATURDAY_SUNDAY : checked(new Set(info.weekend));
}

function checked(weekend: Weekend): Weekend {
  if (weekend.size >= 7) {
    throw new DomainError(
      'INVALID_INPUT',
      'A weekend of all seven days leaves no business day: list fewer days.',
      {
        field: 'weekend',
      },
    );
  }
  return weekend;
}

/**
 * The day `n` business days from `day` (n > 0 forward, n < 0 back), counting only days outside
 * the weekend and never `day` itself — the spreadsheet WORKDAY rule: from a Saturday, 1 business
 * day on is Monday and 1 back is Friday. The time of day is kept. Holidays are not known.
 *
 * @example
 * addBusinessDays(wallClock({ year: 2026, month: 2, day: 20 })!, 1, SATURDAY_SUNDAY).toISODate(); // '2026-02-23'
 */
export function addBusinessDays(day: WallClock, n: number, weekend: Weekend): WallClock {
  const step = n < 0 ? -1 : 1;
  // Whole weeks first, so a large n costs no more than a small one.
  const perWeek = 7 - weekend.size;
  const weeks = Math.max(0, Math.floor((Math.abs(n) - 1) / perWeek));
  let date = day.plus({ weeks: step * weeks });
  let left = Math.abs(n) - weeks * perWeek;
  while (left > 0) {
    date = date.plus({ days: step });
    if (!weekend.has(date.weekday)) left--;
  }
  return date;
}
