/**
 * Build time only: the HTTP method and path of every versioned method of the typed SDK
 * (`npm:@larksuiteoapi/node-sdk`). Its declarations carry the request and response types but not the route,
 * which only its code knows: each method is called once on a client whose HTTP instance records the request
 * instead of sending it (nothing leaves the process). A path parameter the call lacks makes the SDK throw
 * `request miss <name> path argument`; the name is supplied as `:name` and the call repeated.
 */
import * as lark from "@larksuiteoapi/node-sdk";

export interface SdkEndpoint {
  httpMethod: string;
  /** `/open-apis/im/v1/images/:image_key`. */
  path: string;
}

type Callable = (payload: unknown) => Promise<unknown>;
type Tree = Record<string, unknown>;
const isTree = (v: unknown): v is Tree => typeof v === "object" && v !== null;

/** `service.vN.resource.method` -> its route. */
export async function sdkEndpoints(): Promise<Map<string, SdkEndpoint>> {
  let last: { url: string; method: string } | undefined;
  const recorder = {
    request: (config: { url: string; method: string }) => {
      last = config;
      return Promise.resolve({});
    },
  };
  const client = new lark.Client({
    appId: "build",
    appSecret: "build",
    disableTokenCache: true,
    domain: "",
    loggerLevel: lark.LoggerLevel.error,
    httpInstance: recorder as unknown as lark.HttpInstance,
  }) as unknown as Tree;
  const out = new Map<string, SdkEndpoint>();
  for (const [service, versions] of Object.entries(client)) {
    if (!isTree(versions)) continue;
    for (const [version, resources] of Object.entries(versions)) {
      if (!/^v\d+$/.test(version) || !isTree(resources)) continue;
      for (const [resource, methods] of Object.entries(resources)) {
        if (!isTree(methods)) continue;
        for (const [name, fn] of Object.entries(methods)) {
          if (typeof fn !== "function" || name.endsWith("WithIterator")) continue;
          const path: Record<string, string> = {};
          for (let tries = 0; tries < 20; tries++) {
            last = undefined;
            try {
              await (fn as Callable)({ path });
              break;
            } catch (e) {
              const missing = /request miss (\S+) path argument/.exec(String((e as Error)?.message))?.[1];
              if (!missing) break;
              path[missing] = `:${missing}`;
            }
          }
          const url = last as { url: string; method: string } | undefined;
          const at = url?.url.indexOf("/open-apis/") ?? -1;
          if (url && at >= 0) {
            out.set(`${service}.${version}.${resource}.${name}`, {
              httpMethod: url.method.toUpperCase(),
              path: url.url.slice(at).replace(/\?.*$/, ""),
            });
          }
        }
      }
    }
  }
  return out;
}
