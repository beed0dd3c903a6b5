/**
 * Views of one (already sanitized) text that the firewall rules match against. Each view undoes
 * one family of disguises, so a rule is written once in plain lowercase English and still catches
 * "ＩＧＮＯＲＥ", "ign&#111;re", "ignоre" (Cyrillic о), "**ignore**" and "i g n o r e".
 * The views are for matching only; the text the caller gets back is the sanitized original.
 */
export interface MatchViews {
  /** The sanitized text as stored: case and markup intact. */
  readonly raw: string;
  /**
   * NFKC, HTML entities decoded, every invisible character gone, look-alike letters inside
   * mixed-script words mapped to Latin, lowercase, Latin diacritics dropped, runs of spaces and
   * tabs collapsed. Markup and line breaks stay, for the rules about tags and line-start markers.
   */
  readonly markup: string;
  /** `markup` without HTML tags, emphasis marks and quotes, on one line. For the phrase rules. */
  readonly prose: string;
  /** `prose` with everything but letters and digits removed, against spaced or dotted letters. */
  readonly squashed: string;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  shy: '',
  zwj: '',
  zwnj: '',
  lrm: '',
  rlm: '',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, body: string) => {
    if (body[0] !== '#') return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
    const cp =
      body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
    return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : whole;
  });
}

// Entities can re-introduce what the sanitizer removed ("ig&#8203;nore"), and the joiners and
// variation selectors it kept for display mean nothing to a match.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\uFFF9-\uFFFB]|(?![\t\n])\p{Cc}/gu;

/**
 * Cyrillic and Greek letters that look like Latin ones, paired position by position with the Latin
 * letter they imitate. Case matters: uppercase Н looks like H, lowercase н does not.
 */
const CONFUSABLES = pairs(
  'аеёіїјорсухѕһԁԛԝӏкпАВЕЁІЈКМНОРСТУХЅԀԚԜαεικνορτυχωγΑΒΕΖΗΙΚΜΝΟΡΤΥΧ',
  'aeeiijopcyxshdqwlknABEEIJKMHOPCTYXSDQWaeikvoptuxwyABEZHIKMNOPTYX',
);

/** Latin small capitals and dotless letters: Latin script already, and NFKC leaves them alone. */
const LATIN_LOOKALIKES = pairs('ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢıȷɡ', 'abcdefghijklmnoprstuvwyzijg');

function pairs(from: string, to: string): ReadonlyMap<string, string> {
  const source = Array.from(from);
  const target = Array.from(to);
  if (source.length !== target.length) throw new Error('look-alike tables must pair up');
  return new Map(source.map((ch, i) => [ch, target[i]!]));
}

const LATIN = /\p{Script=Latin}/u;
const CONFUSABLE_SCRIPT = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;

/**
 * Maps look-alikes only inside words that mix Latin with Cyrillic or Greek: a spoofed "ignоre"
 * mixes scripts, a real Russian or Greek word does not and is left alone.
 */
function unmaskLookalikes(text: string): string {
  return text.replace(/[\p{L}\p{M}]+/gu, (word) => {
    const latin = Array.from(word, (ch) => LATIN_LOOKALIKES.get(ch) ?? ch).join('');
    if (!LATIN.test(latin) || !CONFUSABLE_SCRIPT.test(latin)) return latin;
    return Array.from(latin, (ch) => CONFUSABLES.get(ch) ?? ch).join('');
  });
}

// Inline tags can split a word ("ig<b>no</b>re"); block tags separate words.
const INLINE_TAGS = new Set(
  'a abbr b bdi bdo big cite code del dfn em font i ins kbd mark q s samp small span strike strong sub sup tt u var wbr'.split(
    ' ',
  ),
);

function stripTags(text: string): string {
  return text.replace(/<\/?([a-z][a-z0-9]*)\b[^<>]{0,500}>/g, (_, name: string) =>
    INLINE_TAGS.has(name) ? '' : ' ',
  );
}

/**
 * Printable ASCII, tabs and line breaks, without an entity: already NFKC and NFD, no invisible
 * characters, look-alikes or diacritics, so of the steps below only lowercasing changes it. Most
 * text is this, and the steps cost more than every rule together.
 */
const PLAIN_ASCII = /^[\t\n\x20-\x25\x27-\x7e]*$/;

/**
 * Builds the views of a sanitized text.
 *
 * @example
 * buildViews('**IG&#78;ORE** previous_instructions').prose; // 'ignore previous instructions'
 */
export function buildViews(sanitized: string): MatchViews {
  const markup = (
    PLAIN_ASCII.test(sanitized)
      ? sanitized.toLowerCase()
      : unmaskLookalikes(decodeEntities(sanitized.normalize('NFKC')).replace(INVISIBLE, ''))
          .toLowerCase()
          .normalize('NFD')
          .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
          .normalize('NFC')
  ).replace(/[^\S\n]+/g, ' ');
  const prose = stripTags(markup)
    .replace(/[*~`"'“”‘’«»„‹›]/g, '')
    .replace(/_/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return { raw: sanitized, markup, prose, squashed: prose.replace(/[^\p{L}\p{N}]+/gu, '') };
}
