import type { Parser } from 'chrono-node';
import { MIDNIGHT_TAG, timeComponents } from './components.js';
import { wordPattern } from './vocabulary.js';

/**
 * Times of day named by a word. Replaces chrono's casual time parser, whose "morning" is 06:00
 * and "afternoon" 15:00. Loose words (morning, afternoon, evening, night) give an implied hour
 * that an explicit time may refine ("tomorrow evening at 7" → 19:00); the rest are exact.
 */
const TIME_WORDS: Record<string, { hour: number; certain: boolean }> = {
  morning: { hour: 9, certain: false },
  noon: { hour: 12, certain: true },
  midday: { hour: 12, certain: true },
  afternoon: { hour: 14, certain: false },
  evening: { hour: 18, certain: false },
  night: { hour: 20, certain: false },
  midnight: { hour: 0, certain: true },
  eod: { hour: 17, certain: true },
  eob: { hour: 17, certain: true },
  cob: { hour: 17, certain: true },
  business: { hour: 17, certain: true },
};

const PART_OF_DAY = wordPattern(
  '(?:(?:this|in\\s+the|at|by)\\s+)?' +
    '(morning|noon|midday|afternoon|evening|night|midnight|eod|eob|cob|' +
    '(?:end|close)\\s+of\\s+(?:the\\s+)?business(?:\\s+day)?)',
);

/** "morning" 09:00, "noon" 12:00, "afternoon" 14:00, "evening" 18:00, "midnight", "eob"/"eod" 17:00. */
export function partOfDayParser(): Parser {
  return {
    pattern: () => PART_OF_DAY,
    extract(context, match) {
      const word = match[1]!.toLowerCase();
      const key = word.includes('business') ? 'business' : word;
      const { hour, certain } = TIME_WORDS[key]!;
      const components = timeComponents(context, hour, 0, { certain });
      // Midnight is 00:00 at the END of the day it is attached to; the resolver adds the day.
      return key === 'midnight' ? components.addTag(MIDNIGHT_TAG) : components;
    },
  };
}
