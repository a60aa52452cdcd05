/**
 * The official SDK's MCP client (`Client` + `StreamableHTTPClientTransport`) against an endpoint, as a client
 * nobody here wrote: tests/mcp_sdk_test.ts runs it against the emulator's `/mcp`. Test-only, with its own
 * config and lock (deno.json here).
 *
 * `deno run -A --config tests/mcp_sdk/deno.json tests/mcp_sdk/client.ts <url> <header> <token>` connects
 * (initialize + notifications/initialized), lists the tools, creates a document, fetches it, fetches a missing
 * one, pings, ends the session, and prints what it saw as one JSON object.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, header, token] = Deno.args;
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { [header]: token } },
});
const client = new Client({ name: "sdk-client", version: "1.0.0" });
await client.connect(transport);
const textOf = (r: { content?: unknown }) =>
  JSON.parse((r.content as { type: string; text: string }[])[0].text) as Record<
    string,
    unknown
  >;

const tools = await client.listTools();
const created = await client.callTool({
  name: "create-doc",
  arguments: { markdown: "# From the SDK\n", title: "SDK" },
});
const doc = textOf(created);
const fetched = await client.callTool({
  name: "fetch-doc",
  arguments: { doc: doc.doc_id },
});
const missing = await client.callTool({
  name: "fetch-doc",
  arguments: { doc: "doxcnNoSuchDoc" },
});
const pong = await client.ping();
const session = transport.sessionId;
const version = transport.protocolVersion;
await transport.terminateSession();
await client.close();
console.log(JSON.stringify({
  session,
  version,
  tools: tools.tools.map((t: { name: string }) => t.name),
  created: doc,
  fetched: { isError: fetched.isError ?? false, ...textOf(fetched) },
  missing: { isError: missing.isError ?? false, ...textOf(missing) },
  pong,
}));
