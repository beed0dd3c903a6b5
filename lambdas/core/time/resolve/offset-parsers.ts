import type { Parser, ParsingComponents, ParsingContext } from 'chrono-node';
import { dateComponents, instantComponents } from './components.js';
import { applyOffset, durationParts, type Offset, offsetOf, WORDED_DURATION } from './offsets.js';
import type { ResolveContext } from './resolve-context.js';
import { type DurationUnit, wordPattern } from './vocabulary.js';

/*
 * Offsets from the reference. chrono's own "in 2 hours" / "3 days ago" parsers do the arithmetic
 * with host-local Date methods (wrong across the host's DST changes, and they treat days as wall
 * clock only sometimes), so we recognise the phrase here and do the arithmetic with luxon in the zone.
 */

function offsetComponents(context: ParsingContext, ctx: ResolveContext, offset: Offset): ParsingComponents {
  // Calendar units count on the caller's calendar, like "today", even when the words name another zone.
  const target = applyOffset(
    ctx.reference.setZone(ctx.calendarZone) as typeof ctx.reference,
    offset,
    ctx.zone,
  );
  // Calendar-only offsets are dates with an implied time (the reference's), so "in 2 days at noon" merges.
  return target.kind === 'wall'
    ? dateComponents(context, target.wall, 'offset')
    : instantComponents(context, target.instant, 'offset');
}

const WORDED = wordPattern(`in\\s+(${WORDED_DURATION})|(${WORDED_DURATION})\\s+(ago|from\\s+now)`);

/** "in 2 hours", "in 3 days", "in an hour", "in 2 hours and 30 minutes", "3 days ago", "2 weeks from now". */
export function wordedOffsetParser(ctx: ResolveContext): Parser {
  return {
    pattern: () => WORDED,
    extract(context, match) {
      const text = match[0];
      const ago = /\s+ago$/i.test(text);
      const duration = text.replace(/^in\s+/i, '').replace(/\s+(ago|from\s+now)$/i, '');
      return offsetComponents(context, ctx, offsetOf(durationParts(duration), ago ? -1 : 1));
    },
  };
}

// The adjust_timestamp grammar: a sign, then units in descending order, each at most once.
const COMPACT = wordPattern('([+-])(?:(\\d+)w)?(?:(\\d+)d)?(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?');
const COMPACT_UNITS: DurationUnit[] = ['weeks', 'days', 'hours', 'minutes', 'seconds'];

/** "+2h", "-30m", "+1d2h30m", "-2w3d", "+90s". */
export function compactOffsetParser(ctx: ResolveContext): Parser {
  return {
    pattern: () => COMPACT,
    extract(context, match) {
      const parts: Array<[number, DurationUnit]> = [];
      COMPACT_UNITS.forEach((unit, i) => {
        const amount = match[i + 2];
        if (amount !== undefined) parts.push([Number(amount), unit]);
      });
      if (parts.length === 0) return null;
      return offsetComponents(context, ctx, offsetOf(parts, match[1] === '-' ? -1 : 1));
    },
  };
}
