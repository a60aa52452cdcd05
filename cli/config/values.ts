/**
 * The closed value lists of the config file's fields, apart from its zod schemas: the environment provider
 * and the extension protocol check values against them on runs that never read the file, and so never load
 * zod for it (start-up). `config_file.ts` builds its schemas from these.
 */
export const IDENTITIES = ["user", "bot"] as const;
export const AS_VALUES = ["user", "bot", "auto"] as const;
export const STRICT_MODES = ["bot", "user", "off"] as const;
export const BRANDS = ["feishu", "lark", "custom"] as const;
export const LANGS = ["zh", "en"] as const;
