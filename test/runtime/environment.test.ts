import { describe, expect, it } from 'vitest';
import { EnvironmentError, parseEnvironment, requireSettings } from '../../lambdas/runtime/environment.js';

describe('parseEnvironment', () => {
  describe('defaults', () => {
    it('fills in every default when nothing is set, and treats blank as unset', () => {
      const blank = parseEnvironment({
        LOCK_TTL_SECS: ' ',
        MERIDIAN_TIMEZONE: '  ',
        MERIDIAN_TABLE_NAME: '',
      });

      for (const environment of [parseEnvironment({}), blank])
        expect(environment).toMatchObject({
          tableName: undefined,
          timezone: undefined,
          lockTtlSeconds: 30,
          memoryItemsCap: undefined,
          callLimits: {},
          embeddings: { choice: 'local' },
          syncIntervalMs: 5 * 60_000,
          memoryCompressionIntervalMs: 5 * 60_000,
          allowedOrigins: [],
          scanFolders: [],
          google: undefined,
          memorySync: undefined,
          ci: false,
        });
    });
  });

  describe('values', () => {
    it('reads the hold lifetime, the call limits and the memory cap as whole numbers, trimmed', () => {
      const environment = parseEnvironment({
        LOCK_TTL_SECS: ' 300 ',
        MERIDIAN_CALL_DEADLINE_SECONDS: ' 10 ',
        MERIDIAN_CALL_WORK_ITEMS: '200000',
        MERIDIAN_MEMORY_MAX_ITEMS: ' 5000 ',
      });

      expect(environment).toMatchObject({
        lockTtlSeconds: 300,
        callLimits: { deadlineMs: 10_000, workItems: 200_000 },
        memoryItemsCap: 5_000,
      });
    });

    it('sets up Google only when both its client id and secret are set', () => {
      expect(parseEnvironment({ MERIDIAN_GOOGLE_CLIENT_ID: 'id' }).google).toBeUndefined();
      expect(
        parseEnvironment({ MERIDIAN_GOOGLE_CLIENT_ID: 'id', MERIDIAN_GOOGLE_CLIENT_SECRET: 'secret' }).google,
      ).toEqual({
        clientId: 'id',
        clientSecret: 'secret',
        apiRoot: undefined,
        tokenUrl: undefined,
        authorizationUrl: undefined,
      });
    });

    it('reads the memory sync bucket with its one key and the daily quotas', () => {
      expect(
        parseEnvironment({
          MERIDIAN_MEMORY_SYNC_BUCKET: 'acme-memory',
          MERIDIAN_MEMORY_SYNC_KEY_FILE: '/etc/meridian/sync.key',
          MERIDIAN_MEMORY_SYNC_UPLOADS_PER_DAY: '0',
        }).memorySync,
      ).toEqual({
        bucket: 'acme-memory',
        endpoint: undefined,
        key: { keyFile: '/etc/meridian/sync.key' },
        quotas: { uploadsPerDay: 0, downloadsPerDay: 20 },
      });
    });
  });

  describe('errors', () => {
    it.each([
      ['LOCK_TTL_SECS', '4', 'LOCK_TTL_SECS must be a whole number of seconds from 5 to 300 (got "4").'],
      [
        'LOCK_TTL_SECS',
        '12.5',
        'LOCK_TTL_SECS must be a whole number of seconds from 5 to 300 (got "12.5").',
      ],
      [
        'LOCK_TTL_SECS',
        'thirty',
        'LOCK_TTL_SECS must be a whole number of seconds from 5 to 300 (got "thirty").',
      ],
      [
        'MERIDIAN_CALL_DEADLINE_SECONDS',
        '0',
        'MERIDIAN_CALL_DEADLINE_SECONDS must be a whole number from 1 to 900; got "0".',
      ],
      [
        'MERIDIAN_CALL_WORK_ITEMS',
        'lots',
        'MERIDIAN_CALL_WORK_ITEMS must be a whole number from 1000 to 10000000; got "lots".',
      ],
      [
        'MERIDIAN_MEMORY_MAX_ITEMS',
        '99',
        'MERIDIAN_MEMORY_MAX_ITEMS must be a whole number from 100 to 10000000; got "99".',
      ],
      ['MERIDIAN_EMBEDDINGS', 'titan', 'MERIDIAN_EMBEDDINGS must be one of local, bedrock (got "titan").'],
      [
        'MERIDIAN_MEMORY_SYNC_UPLOADS_PER_DAY',
        '-1',
        'MERIDIAN_MEMORY_SYNC_UPLOADS_PER_DAY must be a whole number of syncs per day, 0 or more (got "-1").',
      ],
      ['MERIDIAN_TIMEZONE', 'Europe/Londn', 'MERIDIAN_TIMEZONE "Europe/Londn" is not an IANA time zone'],
      [
        'MERIDIAN_ALLOWED_ORIGINS',
        'app.example.com',
        'MERIDIAN_ALLOWED_ORIGINS: "app.example.com" is not an origin.',
      ],
    ])('refuses %s=%j, naming the variable and what it accepts', (name, value, message) => {
      expect(() => parseEnvironment({ [name]: value })).toThrow(message);
    });

    it('suggests the zones closest to a misspelt one', () => {
      expect(() => parseEnvironment({ MERIDIAN_TIMEZONE: 'Europe/Londn' })).toThrow(
        /did you mean Europe\/London/,
      );
    });

    it('names every variable that is wrong at once, in an EnvironmentError', () => {
      let thrown: unknown;
      try {
        parseEnvironment({ LOCK_TTL_SECS: '1', HTTP_PORT: '8080', MERIDIAN_SYNC_INTERVAL_MINUTES: 'often' });
      } catch (error) {
        thrown = error;
      }

      expect(thrown).toBeInstanceOf(EnvironmentError);
      expect((thrown as EnvironmentError).problems).toEqual([
        'LOCK_TTL_SECS must be a whole number of seconds from 5 to 300 (got "1").',
        'MERIDIAN_SYNC_INTERVAL_MINUTES must be a whole number of minutes from 0 (off) to 1440; got "often".',
      ]);
    });

    it('refuses a memory sync bucket with no key, or with both', () => {
      const bucket = { MERIDIAN_MEMORY_SYNC_BUCKET: 'acme-memory' };
      const both = {
        ...bucket,
        MERIDIAN_MEMORY_SYNC_KMS_KEY_ARN: 'arn:aws:kms:eu-west-1:123456789012:key/k',
        MERIDIAN_MEMORY_SYNC_KEY_FILE: '/etc/meridian/sync.key',
      };

      for (const env of [bucket, both])
        expect(() => parseEnvironment(env)).toThrow(
          'MERIDIAN_MEMORY_SYNC_BUCKET is set: set exactly one of MERIDIAN_MEMORY_SYNC_KMS_KEY_ARN',
        );
    });
  });
});

describe('requireSettings', () => {
  it('answers the stack-set settings a runtime needs, and names each one missing', () => {
    const environment = parseEnvironment({ MERIDIAN_TABLE_NAME: 'meridian' });

    expect(requireSettings(environment, ['tableName'])).toEqual({ tableName: 'meridian' });
    expect(() => requireSettings(environment, ['tableName', 'dataKeyArn', 'memoryBucketName'])).toThrow(
      /MERIDIAN_DATA_KEY_ARN is not set: the CDK stack sets it.*MERIDIAN_MEMORY_BUCKET_NAME is not set/,
    );
  });
});
