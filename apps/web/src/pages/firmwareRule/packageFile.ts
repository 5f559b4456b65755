/**
 * What the console reads of a chosen firmware file before uploading it: the ZGFW header and
 * manifest (contract firmware/package.ts), to fill in model and version and to say at once when the file
 * is no signed package. The server checks the signature and everything else.
 */
import { FIRMWARE_PREFIX_MAX_BYTES, FirmwarePackageError, type FirmwareManifest, firmwareProblemMessage, type Language, readFirmwarePrefix } from '@iot/contract';

/** The manifest of `file`, or the reason it is no signed package (in `language`). */
export async function readPackageFile(file: Blob, language: Language): Promise<{ manifest: FirmwareManifest } | { problem: string }> {
  const bytes = new Uint8Array(await file.slice(0, FIRMWARE_PREFIX_MAX_BYTES).arrayBuffer());
  try {
    const prefix = readFirmwarePrefix(bytes, true);
    if (!prefix) return { problem: firmwareProblemMessage('format', 'truncated')[language] };
    return { manifest: prefix.manifest };
  } catch (error) {
    if (error instanceof FirmwarePackageError) return { problem: firmwareProblemMessage(error.problem, error.detail)[language] };
    throw error;
  }
}
