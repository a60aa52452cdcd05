/**
 * A file through the suite's drive API, as the upload and download tests drive it: raw `api` uploading a local
 * file into the seeded folder, and the generated `drive files download` saving a file token's bytes.
 */
import { DRIVE } from "../../sandbox/fixtures.ts";

export const UPLOAD = "/open-apis/drive/v1/files/upload_all";

/** `upload_all`'s form for a file `name` of `size` bytes into the seeded drive folder, as `--data`. */
export function uploadForm(name: string, size: number): string {
  return JSON.stringify({ file_name: name, parent_type: "explorer", parent_node: DRIVE.folder, size });
}

/** Raw `api` argv uploading local file `name` (`size` bytes) with `--file`. */
export function uploadArgv(name: string, size: number): string[] {
  return ["api", "POST", UPLOAD, "--file", name, "--data", uploadForm(name, size)];
}

/** Generated `drive files download` argv saving `fileToken`'s bytes to `output`. */
export function downloadArgv(fileToken: string, output: string): string[] {
  return [
    "drive",
    "files",
    "download",
    "--params",
    JSON.stringify({ file_token: fileToken }),
    "--output",
    output,
  ];
}
