import { intlOffsetMs } from './intl-offset.js';
import { IANAZone } from './luxon.js';

/**
 * luxon's IANAZone with a cheaper offset reading (see intl-offset.ts). luxon asks a zone for
 * its offset on every DateTime it builds, and resolve_datetime spent a quarter of its time
 * there. Everything else — name, validity, equality, formatting — is IANAZone's own, so a
 * DateTime in this zone is indistinguishable from one in `IANAZone.create(name)`.
 */
export class IntlOffsetZone extends IANAZone {
  private static readonly cache = new Map<string, IntlOffsetZone>();

  /** One instance per name, as IANAZone.create keeps one: `name` must be a valid zone name. */
  static of(name: string): IntlOffsetZone {
    let zone = IntlOffsetZone.cache.get(name);
    if (zone === undefined) {
      zone = new IntlOffsetZone(name);
      IntlOffsetZone.cache.set(name, zone);
    }
    return zone;
  }

  /** Offset in minutes at `ts`, fractional for local mean time (Monrovia: -44.5), as luxon's. */
  override offset(ts: number): number {
    // luxon answers NaN for an invalid zone or instant; Intl would throw.
    if (!this.isValid || !Number.isFinite(ts) || Math.abs(ts) > 8.64e15) return Number.NaN;
    return intlOffsetMs(this.name, ts) / 60_000;
  }
}
