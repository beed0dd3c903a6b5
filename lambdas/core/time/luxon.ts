/**
 * luxon as Meridian uses it: every module imports it from here, never from 'luxon' (a lint rule
 * says so), so that these settings hold before the first date is built.
 *
 * The default locale is pinned to en-US. Left unset, luxon asks Intl for the host's locale the
 * first time it builds a date, and that one question starts ICU: about 17 ms of a booking step's
 * cold start, on a calendar (UTC) whose times need no Intl at all. Meridian's answers are
 * machine-readable English whatever the host's locale, so luxon never needs the host's.
 */
// biome-ignore lint/style/noRestrictedImports: the one module that imports luxon itself.
import { Settings } from 'luxon';

Settings.defaultLocale = 'en-US';

// biome-ignore lint/style/noRestrictedImports: the one module that imports luxon itself.
export * from 'luxon';
