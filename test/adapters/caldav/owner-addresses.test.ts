import { describe, expect, it } from 'vitest';
import { ownerAddressesFrom } from '../../../lambdas/adapters/caldav/caldav-client.js';

// Radicale lists only the principal path, so the tool-level tests (test/mcp/tools/declined-events)
// reach the user-name fallback; servers such as Nextcloud and iCloud list mailto: addresses.
describe('ownerAddressesFrom', () => {
  it('takes the mailto: entries of calendar-user-address-set, decoded, and ignores paths', () => {
    expect(
      ownerAddressesFrom(
        ['/principals/ann/', 'mailto:ann@example.com', 'MAILTO:ann%2Bwork@example.com'],
        'ann',
      ),
    ).toEqual(['ann@example.com', 'ann+work@example.com']);
  });

  it('falls back to the user name when it is an address and the set lists none', () => {
    expect(ownerAddressesFrom(['/ann%40example.com/'], 'ann@example.com')).toEqual(['ann@example.com']);
  });

  it('knows no owner when neither gives an address', () => {
    expect(ownerAddressesFrom(['/ann/'], 'ann')).toEqual([]);
  });
});
