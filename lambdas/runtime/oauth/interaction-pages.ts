import type { ResourceGrant } from '../../core/access/rights.js';
import { formatResourceRef } from '../../core/access/rights.js';

/*
 * The sign-in and consent pages: plain server-rendered HTML, one inline style sheet, no script
 * and nothing fetched from elsewhere (the Content-Security-Policy says so), usable on a phone.
 * Field names follow the standard `autocomplete` tokens and the submit button of the consent form
 * is named `approve`, so password managers and test drivers find them.
 */

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:0 auto;padding:1rem;color:#111}
h1{font-size:1.4rem}label{display:block;margin:.8rem 0 .2rem}input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem}
table{width:100%;border-collapse:collapse}td,th{padding:.4rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
select{font-size:1rem;padding:.3rem}button{font-size:1rem;padding:.7rem 1.2rem;margin:.6rem .4rem 0 0}
.note{color:#555;font-size:.9rem}.error{color:#a00}code{word-break:break-all}`;

/** The headers of every page: nothing loads from elsewhere, no framing (clickjacking on consent). */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
} as const;

/** Text as HTML: every character that could open markup or an attribute is escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** The sign-in form, posting to `action`; `problem` says why the last attempt failed. */
export function signInPage(options: {
  action: string;
  csrf: string;
  clientName: string;
  problem?: string;
}): string {
  return page(
    'Sign in to Meridian',
    `<h1>Sign in to Meridian</h1>
<p><strong>${escapeHtml(options.clientName)}</strong> wants to use Meridian on your behalf.</p>
${options.problem ? `<p class="error" role="alert">${escapeHtml(options.problem)}</p>` : ''}
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(options.csrf)}">
<label for="username">User name</label>
<input id="username" type="text" name="username" autocomplete="username" autocapitalize="none" required autofocus>
<label for="password">Password</label>
<input id="password" type="password" name="password" autocomplete="current-password" required>
<button type="submit" name="sign_in">Sign in</button>
</form>`,
  );
}

export interface ConsentView {
  action: string;
  csrf: string;
  person: string;
  client: { name: string; clientId: string; redirectHost: string; registration: string };
  /** Toolsets the client asked for, among those that exist. */
  toolsets: readonly string[];
  /** The person's own rights: the rows of the matrix, and the most each row can offer. */
  grants: readonly ResourceGrant[];
  /** Why the last submission was refused. */
  problem?: string;
}

function rightOptions(max: 'read' | 'write'): string {
  const options = max === 'write' ? ['none', 'read', 'write'] : ['none', 'read'];
  return options
    .map((right) => `<option value="${right}"${right === max ? ' selected' : ''}>${right}</option>`)
    .join('');
}

/** The consent form: who asks, for whom, and the grant matrix never wider than the person's rights. */
export function consentPage(view: ConsentView): string {
  const rows = view.grants
    .map((grant, index) => {
      const name = formatResourceRef(grant.resource);
      return `<tr><td><label for="g${index}">${escapeHtml(grant.resource.kind)} <code>${escapeHtml(name)}</code></label></td>
<td><select id="g${index}" name="grant:${escapeHtml(name)}">${rightOptions(grant.right)}</select></td></tr>`;
    })
    .join('');
  const toolsets = view.toolsets
    .map(
      (toolset) =>
        `<label><input type="checkbox" name="toolset" value="${escapeHtml(toolset)}" checked> ${escapeHtml(toolset)}</label>`,
    )
    .join('');
  return page(
    'Allow access to Meridian?',
    `<h1>Allow ${escapeHtml(view.client.name)} to use Meridian?</h1>
<p>Signed in as <strong>${escapeHtml(view.person)}</strong>.</p>
${view.problem ? `<p class="error" role="alert">${escapeHtml(view.problem)}</p>` : ''}
<p class="note">Client <code>${escapeHtml(view.client.clientId)}</code> (${escapeHtml(view.client.registration)}), returning to <strong>${escapeHtml(view.client.redirectHost)}</strong>.</p>
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<fieldset><legend>Toolsets</legend>${toolsets || '<p>None requested.</p>'}</fieldset>
<h2>Calendars and projects</h2>
${rows ? `<table><thead><tr><th>Resource</th><th>Access</th></tr></thead><tbody>${rows}</tbody></table>` : '<p class="note">You have no calendars or projects to share yet.</p>'}
<p class="note">The client gets only what you choose here; a calendar or project added later is not included.</p>
<button type="submit" name="approve" value="yes">Allow</button>
<button type="submit" name="deny" value="yes" formnovalidate>Deny</button>
</form>`,
  );
}

/** A page that only says what went wrong and what to do. */
export function problemPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}
