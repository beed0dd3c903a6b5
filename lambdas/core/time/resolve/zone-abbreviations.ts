/**
 * Zone abbreviations an expression may end with ("3pm PST"), and what each names. The list is
 * the tz database's own: every alphabetic abbreviation a zone shows in current use, with every UTC
 * offset it stands for — test/core/time/resolve/zone-abbreviations.test.ts checks it against
 * Python's zoneinfo both ways (each meaning is shown by its `clocks` zone at that offset, and no
 * abbreviation or offset in tzdata is missing), so a tzdata release that adds one fails the suite.
 * It is written out because no runtime API gives it: Intl reports abbreviations only per locale
 * (en-US knows PST but not CET, and no English locale says CST for China).
 *
 * An abbreviation means its fixed offset: "PST" is UTC−08:00 even in July, when Los Angeles
 * shows PDT. An explicit abbreviation is an exact statement, and reading it as "whatever LA shows"
 * would silently move a July "3pm PST" by an hour; the resolver reports the clocks' reading as an
 * alternative whenever they differ. The first meaning is the one chosen when there are several
 * (CST is US Central before China and Cuba; IST is India before Israel and Ireland).
 */
export interface AbbreviationMeaning {
  /** What the abbreviation stands for here, in words. */
  name: string;
  /** Minutes east of UTC. */
  offset: number;
  /** A zone whose clocks show this abbreviation at this offset. */
  clocks: string;
}

const m = (name: string, hours: number, clocks: string): AbbreviationMeaning => ({
  name,
  offset: Math.round(hours * 60),
  clocks,
});

export const ZONE_ABBREVIATIONS: Readonly<Record<string, readonly AbbreviationMeaning[]>> = {
  UTC: [m('Coordinated Universal Time', 0, 'UTC')],
  GMT: [m('Greenwich Mean Time', 0, 'Europe/London')],
  BST: [m('British Summer Time', 1, 'Europe/London')],
  WET: [m('Western European Time', 0, 'Europe/Lisbon')],
  WEST: [m('Western European Summer Time', 1, 'Europe/Lisbon')],
  CET: [m('Central European Time', 1, 'Europe/Berlin')],
  CEST: [m('Central European Summer Time', 2, 'Europe/Berlin')],
  EET: [m('Eastern European Time', 2, 'Europe/Athens')],
  EEST: [m('Eastern European Summer Time', 3, 'Europe/Athens')],
  MSK: [m('Moscow Time', 3, 'Europe/Moscow')],
  IST: [
    m('India Standard Time', 5.5, 'Asia/Kolkata'),
    m('Israel Standard Time', 2, 'Asia/Jerusalem'),
    m('Irish Standard Time', 1, 'Europe/Dublin'),
  ],
  IDT: [m('Israel Daylight Time', 3, 'Asia/Jerusalem')],
  WAT: [m('West Africa Time', 1, 'Africa/Lagos')],
  CAT: [m('Central Africa Time', 2, 'Africa/Maputo')],
  EAT: [m('East Africa Time', 3, 'Africa/Nairobi')],
  SAST: [m('South Africa Standard Time', 2, 'Africa/Johannesburg')],
  PKT: [m('Pakistan Standard Time', 5, 'Asia/Karachi')],
  WIB: [m('Western Indonesia Time', 7, 'Asia/Jakarta')],
  WITA: [m('Central Indonesia Time', 8, 'Asia/Makassar')],
  WIT: [m('Eastern Indonesia Time', 9, 'Asia/Jayapura')],
  HKT: [m('Hong Kong Time', 8, 'Asia/Hong_Kong')],
  JST: [m('Japan Standard Time', 9, 'Asia/Tokyo')],
  KST: [m('Korea Standard Time', 9, 'Asia/Seoul')],
  AWST: [m('Australian Western Standard Time', 8, 'Australia/Perth')],
  ACST: [m('Australian Central Standard Time', 9.5, 'Australia/Adelaide')],
  ACDT: [m('Australian Central Daylight Time', 10.5, 'Australia/Adelaide')],
  AEST: [m('Australian Eastern Standard Time', 10, 'Australia/Sydney')],
  AEDT: [m('Australian Eastern Daylight Time', 11, 'Australia/Sydney')],
  CHST: [m('Chamorro Standard Time', 10, 'Pacific/Guam')],
  NZST: [m('New Zealand Standard Time', 12, 'Pacific/Auckland')],
  NZDT: [m('New Zealand Daylight Time', 13, 'Pacific/Auckland')],
  SST: [m('Samoa Standard Time', -11, 'Pacific/Pago_Pago')],
  HST: [m('Hawaii Standard Time', -10, 'Pacific/Honolulu')],
  HDT: [m('Hawaii-Aleutian Daylight Time', -9, 'America/Adak')],
  AKST: [m('Alaska Standard Time', -9, 'America/Anchorage')],
  AKDT: [m('Alaska Daylight Time', -8, 'America/Anchorage')],
  PST: [
    m('Pacific Standard Time', -8, 'America/Los_Angeles'),
    m('Philippine Standard Time', 8, 'Asia/Manila'),
  ],
  PDT: [m('Pacific Daylight Time', -7, 'America/Los_Angeles')],
  MST: [m('Mountain Standard Time', -7, 'America/Denver')],
  MDT: [m('Mountain Daylight Time', -6, 'America/Denver')],
  CST: [
    m('Central Standard Time (US)', -6, 'America/Chicago'),
    m('China Standard Time', 8, 'Asia/Shanghai'),
    m('Cuba Standard Time', -5, 'America/Havana'),
  ],
  CDT: [
    m('Central Daylight Time (US)', -5, 'America/Chicago'),
    m('Cuba Daylight Time', -4, 'America/Havana'),
  ],
  EST: [m('Eastern Standard Time', -5, 'America/New_York')],
  EDT: [m('Eastern Daylight Time', -4, 'America/New_York')],
  AST: [m('Atlantic Standard Time', -4, 'America/Halifax')],
  ADT: [m('Atlantic Daylight Time', -3, 'America/Halifax')],
  NST: [m('Newfoundland Standard Time', -3.5, 'America/St_Johns')],
  NDT: [m('Newfoundland Daylight Time', -2.5, 'America/St_Johns')],
};

/**
 * Names for a region's clocks rather than one offset ("3pm ET", "noon Pacific"): the zone as its
 * clocks show it, summer or winter. Not in tzdata (it has no generic names), so listed here.
 */
export const GENERIC_ZONE_NAMES: Readonly<Record<string, string>> = {
  et: 'America/New_York',
  eastern: 'America/New_York',
  ct: 'America/Chicago',
  central: 'America/Chicago',
  mt: 'America/Denver',
  mountain: 'America/Denver',
  pt: 'America/Los_Angeles',
  pacific: 'America/Los_Angeles',
  akt: 'America/Anchorage',
  alaska: 'America/Anchorage',
  hawaii: 'Pacific/Honolulu',
};
