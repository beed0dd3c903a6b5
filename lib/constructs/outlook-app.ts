import { OUTLOOK_AUTHORITY_ENV, OUTLOOK_CLIENT_ID_ENV } from '../../lambdas/runtime/environment-names.js';

/**
 * The Microsoft Entra app registration (a public client: no secret) a deployment redeems
 * connected Outlook accounts' refresh tokens with; the tokens themselves are stored encrypted
 * under the data key.
 */
export interface OutlookApp {
  readonly clientId: string;
  /**
   * `https://login.microsoftonline.com/<tenant>`.
   *
   * @default - `https://login.microsoftonline.com/organizations`
   */
  readonly authority?: string;
}

/** Environment entries for the functions that talk to Microsoft Graph; none without an app. */
export function outlookAppEnvironment(app: OutlookApp | undefined): Record<string, string> {
  if (!app) return {};
  return {
    [OUTLOOK_CLIENT_ID_ENV]: app.clientId,
    ...(app.authority ? { [OUTLOOK_AUTHORITY_ENV]: app.authority } : {}),
  };
}
