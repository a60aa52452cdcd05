/**
 * The shapes every layer uses to ask "who am I and what may I send": the account a credential provider
 * resolved, the access token for an identity, and the chain that answers both. Implementations live beside
 * this file (`chain.ts`, providers); commands and the HTTP client see only these interfaces.
 */
import type { Brand, Endpoints } from "../config/endpoints.ts";
import type { Identity } from "../output/envelope.ts";

export type { Identity };
export type AsFlag = Identity | "auto";
export type StrictMode = "bot" | "user" | "off";

export interface Account {
  /** Where the account came from: "config", "env", or "extension:<name>". */
  source: string;
  profile?: string;
  appId?: string;
  brand: Brand;
  endpoints: Endpoints;
  defaultAs?: AsFlag;
  strictMode: StrictMode;
  /** The logged-in user, when there is one. */
  user?: { openId: string; name?: string };
}

export interface AccessToken {
  identity: Identity;
  token: string;
  /** Granted scopes when the source knows them (user tokens); undefined means unknown, not none. */
  scopes?: string[];
  expiresAt?: number;
}

/** The request a token is for: a broker checks its policy on it (`broker.ts`); other sources ignore it. */
export interface TokenRequest {
  method: string;
  /** `/open-apis/...`, without the query. */
  path: string;
}

export interface CredentialChain {
  /** The account of the first provider that answers; a `config` error when none does. */
  account(): Promise<Account>;
  /** A valid token for the identity, refreshed or minted as needed; an `auth` error whose hint is the fix. */
  token(identity: Identity, signal?: AbortSignal, request?: TokenRequest): Promise<AccessToken>;
  /** Identities for which credentials exist now (feeds auto identity and strict mode). */
  identities(): Promise<Identity[]>;
  /**
   * Scopes granted to the identity as far as they are known locally, without any request: a user token's
   * stored grant, a bot's configured app scopes. undefined means unknown (the scope pre-check then passes).
   */
  grantedScopes(identity: Identity): Promise<string[] | undefined>;
  /**
   * The suite rejected `token` although it looked valid here (revoked, or expired before its stated time):
   * forget it so that the next `token()` mints or refreshes another. false when no other token can be had
   * (a token given verbatim); an `auth` error when the login behind it is dead.
   */
  invalidate?(identity: Identity, token: string, signal?: AbortSignal): Promise<boolean>;
  /**
   * The app secret itself, for the one suite endpoint that takes it instead of a token (the event long
   * connection's endpoint request); a `config` error when the account has none (tokens given verbatim).
   */
  appSecret?(): Promise<string>;
}

/** What a provider that answered hands the chain: its account and how to get tokens for it. */
export interface CredentialSource {
  account: Account;
  token(identity: Identity, signal?: AbortSignal, request?: TokenRequest): Promise<AccessToken>;
  /** Every request asks for its own token (a broker decides each): the chain never reuses one. */
  perRequest?: boolean;
  identities(): Promise<Identity[]>;
  grantedScopes(identity: Identity): Promise<string[] | undefined>;
  /** See `CredentialChain.invalidate`; absent when the source cannot get another token. */
  invalidate?(identity: Identity, token: string, signal?: AbortSignal): Promise<boolean>;
  /** See `CredentialChain.appSecret`; absent when the source holds no app secret. */
  appSecret?(): Promise<string>;
}

/** One link of the chain: a source, or undefined to let the next provider answer; a throw stops the chain. */
export interface CredentialProvider {
  name: string;
  resolve(): Promise<CredentialSource | undefined>;
}
