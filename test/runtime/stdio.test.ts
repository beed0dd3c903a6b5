import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, LOG_LEVEL_META_KEY, type LoggingMessageNotification } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIME_TOOLS } from '../mcp/http-transport-suite.js';
import { ERAS, useEveryCapability } from '../mcp/protocol-eras.js';
import { meridian } from '../support/cli.js';
import { type CallToolResult, errorOf } from '../support/mcp-client.js';
import { startStdio } from '../support/stdio-process.js';

describe('meridian stdio', () => {
  let client: Client;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-stdio-'));
    client = new Client({ name: 'meridian-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['bin/meridian.mjs', 'stdio', '--data-dir', dataDir],
        env: { ...(process.env as Record<string, string>), MERIDIAN_TIMEZONE: 'Europe/London' },
        stderr: 'pipe',
      }),
    );
  });

  afterAll(async () => {
    await client?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists the six time tools', async () => {
    const { tools } = await client.listTools();

    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining([...TIME_TOOLS]));
  });

  it('reports the configured zone from MERIDIAN_TIMEZONE', async () => {
    const result = (await client.callTool({ name: 'get_temporal_context', arguments: {} })) as CallToolResult;

    expect(result.structuredContent).toMatchObject({ timezone: 'Europe/London', timezone_configured: true });
  });

  it('serves the timesheet resources and prompts to the local owner', async () => {
    const { resources } = await client.listResources();
    const { prompts } = await client.listPrompts();

    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['timesheet://docs/rules-syntax']));
    expect(prompts.map((p) => p.name)).toEqual(['write-rule', 'weekly-timesheet', 'resume-work']);
  });

  it('exits cleanly, releasing the data dir, when the client closes stdin', async () => {
    const { spawn } = await import('node:child_process');
    const { readdir } = await import('node:fs/promises');
    const own = await mkdtemp(join(tmpdir(), 'meridian-stdio-eof-'));
    const child = spawn(process.execPath, ['bin/meridian.mjs', 'stdio', '--data-dir', own], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });

    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));

    expect(code).toBe(0);
    expect(await readdir(own)).not.toContain('dynamodb.sock');
    await rm(own, { recursive: true, force: true });
  }, 60_000);

  describe('with --toolsets', () => {
    let own: Client;

    beforeAll(async () => {
      own = new Client({ name: 'meridian-test', version: '1.0.0' });
      await own.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: ['bin/meridian.mjs', 'stdio', '--data-dir', dataDir, '--toolsets', 'time'],
          stderr: 'pipe',
        }),
      );
    }, 60_000);

    afterAll(async () => {
      await own?.close();
    });

    it('lists and calls only the chosen toolsets', async () => {
      const { tools } = await own.listTools();
      const result = (await own.callTool({
        name: 'convert_timezone',
        arguments: { datetime: '2026-03-15T18:00:00Z', target_timezone: 'Asia/Tokyo' },
      })) as CallToolResult;

      expect(tools.map((tool) => tool.name).sort()).toEqual([...TIME_TOOLS].sort());
      expect(result.structuredContent).toMatchObject({ local: '2026-03-16T03:00:00+09:00' });
    });

    it('refuses a tool of another toolset, saying how to enable it', async () => {
      await expect(own.callTool({ name: 'list_events', arguments: {} })).rejects.toThrow(
        /toolset "calendar".*--toolsets time,calendar/,
      );
    });

    it('refuses to start with an unknown toolset, naming the known ones', async () => {
      await expect(
        meridian(['stdio', '--data-dir', dataDir, '--toolsets', 'time,calender']),
      ).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringMatching(
          /Unknown toolset "calender" in --toolsets.*time, calendar, availability/,
        ),
      });
    });
  });

  it("carries a tool's progress as log messages at the level the client set", async () => {
    const messages: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      messages.push(notification.params);
    });
    const created = (await client.callTool({
      name: 'create_calendar',
      arguments: { summary: 'Logs' },
    })) as CallToolResult;
    const calendar_id = created.structuredContent?.calendar_id as string;
    const event = (await client.callTool({
      name: 'create_event',
      arguments: {
        calendar_id,
        summary: 'Standup',
        start: { date_time: '2026-05-04T09:00:00+01:00' },
        end: { date_time: '2026-05-04T09:15:00+01:00' },
      },
    })) as CallToolResult;
    const batch = {
      name: 'batch_update_events',
      arguments: {
        calendar_id,
        updates: [{ event_id: event.structuredContent?.event_id, summary: 'Daily' }],
      },
    };

    await client.setLoggingLevel('info');
    await client.callTool(batch);
    await client.setLoggingLevel('error');
    await client.callTool(batch);
    await client.ping(); // notifications sent before this answer have arrived

    expect(messages).toEqual([
      { level: 'info', logger: 'batch_update_events', data: `Applying 1 update(s) to ${calendar_id}.` },
      { level: 'info', logger: 'batch_update_events', data: '1 succeeded, 0 failed' },
    ]);
  });

  it('answers invalid input with isError and a code', async () => {
    const result = (await client.callTool({
      name: 'convert_timezone',
      arguments: { datetime: '2026-03-15T18:00:00Z', target_timezone: 'Mars/Olympus' },
    })) as CallToolResult;

    expect(errorOf(result).code).toBe('INVALID_TIMEZONE');
  });
});

describe('meridian stdio, both protocol eras on one data dir', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-stdio-eras-'));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it.each(ERAS)(
    'serves a $label client every toolset, a resource, a prompt and a completion',
    async (era) => {
      const stdio = await startStdio(dataDir, era.era);

      try {
        expect(stdio.client.getProtocolEra()).toBe(era.sdkEra);
        expect(stdio.client.getNegotiatedProtocolVersion()).toBe(era.version);
        await useEveryCapability(stdio.client, era.version);
      } finally {
        await stdio.close();
      }
    },
  );

  it('answers a request for an unsupported version with UnsupportedProtocolVersion (-32022) naming the supported ones', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['bin/meridian.mjs', 'stdio', '--data-dir', dataDir], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const firstLine = new Promise<string>((resolve) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('\n')) resolve(output.split('\n')[0]!);
      });
    });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2099-01-01',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };

    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } })}\n`,
    );
    const answer = JSON.parse(await firstLine);
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));

    expect(answer).toMatchObject({
      id: 1,
      error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2099-01-01' } },
    });
  }, 60_000);

  it('sends a 2026-07-28 request the log messages at the level it asks for, and none when it asks for none', async () => {
    const stdio = await startStdio(dataDir, 'modern');
    const messages: LoggingMessageNotification['params'][] = [];
    stdio.client.setNotificationHandler('notifications/message', (notification) => {
      messages.push(notification.params);
    });
    try {
      const created = await stdio.call('create_calendar', { summary: 'Per-request logs' });
      const calendar_id = created.structuredContent?.calendar_id as string;
      const event = await stdio.call('create_event', {
        calendar_id,
        summary: 'Standup',
        start: { date_time: '2026-05-04T09:00:00+01:00' },
        end: { date_time: '2026-05-04T09:15:00+01:00' },
      });
      const batch = (level?: string) =>
        stdio.client.callTool({
          name: 'batch_update_events',
          arguments: {
            calendar_id,
            updates: [{ event_id: event.structuredContent?.event_id, summary: 'Daily' }],
          },
          ...(level ? { _meta: { [LOG_LEVEL_META_KEY]: level } } : {}),
        });

      await batch();
      expect(messages).toEqual([]);
      await batch('error');
      expect(messages).toEqual([]);
      await batch('info');

      expect(messages).toEqual([
        expect.objectContaining({ level: 'info', logger: 'batch_update_events' }),
        expect.objectContaining({ level: 'info', logger: 'batch_update_events' }),
      ]);
    } finally {
      await stdio.close();
    }
  });
});
