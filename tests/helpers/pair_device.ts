/**
 * A remote device paired the real way, as the dev relay (like production) admits no other: the server side
 * starts a pairing (`remoteControl/pairing/start` from a local client, `remote-control pair`, or the session's or
 * host's `pair()` behind them, which asks the relay for a code with the server token), the device redeems the
 * code at the relay for its client id and token, and its sockets present that token. Tests about unpaired
 * devices do not use this: they connect without a token and expect the refusal.
 */
import { type PairingRedemption, redeemPairingCode, RemoteClient } from "../../relay/remote_client.ts";

/** What starts a pairing on the server side and returns the code (the `remoteControl/pairing/start` result). */
export interface PairingStarter {
  pair(): Promise<{ pairingCode: string }>;
}

/** Where a device redeems a code and opens its socket (a `DevRelay`, or its URLs from another thread). */
export interface PairingRelay {
  pairUrl: string;
  clientUrl(clientId: string): string;
}

export interface PairedDevice {
  clientId: string;
  token: string;
  /** The device's socket URL at the relay (for raw sockets, which send `authorization: Bearer <token>`). */
  url: string;
  /** Opens one more socket as this device. */
  connect(): Promise<RemoteClient>;
}

type DeviceInfo = Omit<PairingRedemption, "pairing_code" | "manual_pairing_code">;

/** Pairs a new device: the server starts a pairing, the device redeems its code. */
export async function pairDevice(
  relay: PairingRelay,
  server: PairingStarter,
  info: DeviceInfo = {},
): Promise<PairedDevice> {
  const { pairingCode } = await server.pair();
  const paired = await redeemPairingCode(fetch, relay.pairUrl, {
    pairing_code: pairingCode,
    ...info,
  });
  const url = relay.clientUrl(paired.client_id);
  return {
    clientId: paired.client_id,
    token: paired.client_token,
    url,
    connect: () => RemoteClient.connect(url, paired.client_id, { token: paired.client_token }),
  };
}

/** Pairs a new device and opens its socket: the `RemoteClient` a test drives. */
export async function pairRemoteClient(
  relay: PairingRelay,
  server: PairingStarter,
  info: DeviceInfo = {},
): Promise<RemoteClient> {
  return await (await pairDevice(relay, server, info)).connect();
}
