/**
 * Encryption of secrets kept in the database (command password digits today; lock credentials later):
 * AES-256-GCM (node:crypto), a random 96-bit IV per value and a 128-bit tag. A sealed value is the
 * text `v1.<base64url(iv | tag | ciphertext)>`; opening fails loudly on a wrong key or tampering.
 *
 * The key (32 bytes) comes from config SECRET_KEY (64 hex digits or base64), else from the file
 * `secret.key` in DATA_DIR, created with mode 0600 at first use. Instances sharing a database must
 * share the key.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const VERSION = 'v1';
/** Bytes. */
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretBox {
  /** Encrypts UTF-8 `plain`; returns `v1.<base64url>`. */
  seal(plain: string): string;
  /** Decrypts a sealed value; throws on a wrong key, a damaged value or an unknown version. */
  open(sealed: string): string;
}

/** A SecretBox over a 32-byte key. */
export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new Error(`secret key must be ${KEY_BYTES} bytes, got ${key.length}`);
  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed) {
      const [version, encoded] = sealed.split('.', 2);
      if (version !== VERSION || !encoded) throw new Error('not a sealed secret');
      const raw = Buffer.from(encoded, 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('sealed secret too short');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

/** Parses SECRET_KEY: 64 hex digits or base64(url) of 32 bytes. */
export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES) throw new Error('SECRET_KEY must be 64 hex digits or base64 of 32 bytes');
  return key;
}

const boxes = new Map<string, SecretBox>();
const keys = new Map<string, Buffer>();

/**
 * The platform's 32-byte master key of a configuration (memoised per key source): SECRET_KEY, else
 * `DATA_DIR/secret.key`, created (random key, hex, mode 0600) when missing. Throws when neither is
 * given. Besides sealing secrets it is the input key of per-lock keys derived with HKDF (offline codes).
 */
export function masterKeyFor(config: { SECRET_KEY?: string; DATA_DIR?: string }): Buffer {
  const source = config.SECRET_KEY ? `key:${config.SECRET_KEY}` : config.DATA_DIR ? `dir:${config.DATA_DIR}` : undefined;
  if (!source) throw new Error('SECRET_KEY or DATA_DIR is needed to encrypt secrets');
  let key = keys.get(source);
  if (!key) {
    key = config.SECRET_KEY ? parseSecretKey(config.SECRET_KEY) : keyFile(config.DATA_DIR as string);
    keys.set(source, key);
  }
  return key;
}

/** The SecretBox of a configuration's master key (memoised per key; masterKeyFor). */
export function secretBoxFor(config: { SECRET_KEY?: string; DATA_DIR?: string }): SecretBox {
  const key = masterKeyFor(config);
  const id = key.toString('hex');
  let box = boxes.get(id);
  if (!box) {
    box = createSecretBox(key);
    boxes.set(id, box);
  }
  return box;
}

function keyFile(dataDir: string): Buffer {
  const path = join(dataDir, 'secret.key');
  if (!existsSync(path)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(path, `${randomBytes(KEY_BYTES).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // another process created it first
    }
  }
  return parseSecretKey(readFileSync(path, 'utf8'));
}

/** A SecretBox that loads its key only when first used (most commands have no secret field). */
export function lazySecretBox(config: { SECRET_KEY?: string; DATA_DIR?: string }): SecretBox {
  return { seal: (plain) => secretBoxFor(config).seal(plain), open: (sealed) => secretBoxFor(config).open(sealed) };
}
