/** `text` with invisible, control and bidi characters spelled as \u{…}, for test names. */
export function visible(text: string, max = 90): string {
  const shown = Array.from(text, (ch) =>
    /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}]/u.test(ch)
      ? `\\u{${ch.codePointAt(0)!.toString(16).toUpperCase()}}`
      : ch,
  ).join('');
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
}
