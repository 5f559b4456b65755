/**
 * Firmware versions: one normalised form per version, compared by Semantic Versioning 2.0
 * precedence (semver.org §11, the `semver` package). Input may carry a leading `v`/`V` (ZIGUANG locks
 * report `V1.2.3`) and build metadata (`+build.2`), neither of which has precedence: `V1.4.0`, `1.4.0`
 * and `1.4.0+build.7` are one version, stored as `1.4.0` and shown as `V1.4.0` everywhere (lock lists,
 * heartbeats, packages, rollouts, exports). Without zod (the console's lists format versions on
 * first load): the request field is api/firmware.ts versionInput.
 */
import semver from 'semver';

/** Longest version text accepted (a semver with a pre-release and build metadata fits easily). */
export const VERSION_MAX_LENGTH = 64;

/** The outline of a version text (a leading v/V, then digits, letters, dots, + and -), checked before parsing. */
export const VERSION_SHAPE = /^[vV]?\d[0-9A-Za-z.+-]*$/;

/**
 * The canonical form of a version as entered or reported: trimmed, without a leading `v`/`V` and without
 * build metadata, e.g. `V1.4.0+build.2` -> `1.4.0`, `2.0.0-rc.1` stays; undefined when it is not a
 * semantic version (`1.4`, `01.2.3`, `v 1.2`).
 */
export function normaliseVersion(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.length > VERSION_MAX_LENGTH || !VERSION_SHAPE.test(trimmed)) return undefined;
  return semver.parse(trimmed.replace(/^[vV]/, ''))?.version;
}

/** The one display form: `V` + the canonical version; the text as it is when it is not a version; '' for none. */
export function formatVersion(text: string | null | undefined): string {
  if (!text) return '';
  const canonical = normaliseVersion(text);
  return canonical ? `V${canonical}` : text;
}

/** Semver precedence of two versions in any accepted form (-1, 0, 1); unparseable ones sort first, by text. */
export function compareVersions(a: string, b: string): number {
  const x = normaliseVersion(a);
  const y = normaliseVersion(b);
  if (x && y) return semver.compare(x, y);
  if (!x && !y) return a.localeCompare(b);
  return x ? 1 : -1;
}
