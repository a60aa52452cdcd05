/**
 * What the built-in credential providers share: the process edges, the secret store, the HTTP client's send
 * (so token requests get the same debug logging and error mapping as every other request), and the exact
 * login command for this run's profile (every dead-login error names it).
 */
import type { SecretStore } from "../config/secret_store.ts";
import type { Provider } from "../provider.ts";
import type { Send } from "./oauth_token.ts";

export interface ProviderDeps {
  p: Provider;
  store: SecretStore;
  send: Send;
  loginCommand: (scopes: string[]) => string;
  /** See `ChainOptions.freshBotToken`. */
  freshBotToken?: boolean;
}
