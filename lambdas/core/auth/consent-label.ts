/**
 * A consent is an API key nobody holds the secret of (docs/adr/0013): its label says which client
 * it was given to and by whom, `oauth: <client> for <person>`. Person names have no spaces
 * (local-users.ts), so the label's last word names the person, whatever the client calls itself.
 *
 * @example
 * consentLabel('Claude', 'alice'); // 'oauth: Claude for alice'
 * isConsentOf('oauth: Claude for alice', 'alice'); // true
 */
export function consentLabel(clientName: string, person: string): string {
  return `oauth: ${clientName} for ${person}`;
}

/** True for the label of a consent `person` gave (names compared as stored: lower case). */
export function isConsentOf(label: string, person: string): boolean {
  return label.startsWith('oauth: ') && label.toLowerCase().endsWith(` for ${person.toLowerCase()}`);
}
