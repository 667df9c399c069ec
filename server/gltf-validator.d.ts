/**
 * Types of the Khronos glTF validator (`gltf-validator` ships none), limited to what
 * server/model-validator.ts uses. See the package README for the full option list.
 */
declare module 'gltf-validator' {
  export interface ValidationOptions {
    /** Copied into the report. */
    uri?: string;
    /** `glb` or `gltf` skips format detection. */
    format?: 'glb' | 'gltf';
    /** Loads an external resource (buffer or image) by its relative URI. */
    externalResourceFunction?: (uri: string) => Promise<Uint8Array>;
    writeTimestamp?: boolean;
    /** 0 for unlimited. */
    maxIssues?: number;
  }

  export interface ValidatorMessage {
    code: string;
    message: string;
    /** 0 error, 1 warning, 2 information, 3 hint. */
    severity: number;
    /** JSON pointer into the glTF, for problems of the document. */
    pointer?: string;
    /** Byte offset, for problems of the binary container. */
    offset?: number;
  }

  export interface ValidatorReport {
    uri?: string;
    mimeType?: string;
    validatorVersion: string;
    issues: {
      numErrors: number;
      numWarnings: number;
      numInfos: number;
      numHints: number;
      messages: ValidatorMessage[];
      truncated: boolean;
    };
    /** Statistics of the asset (counts, resources, extensions); absent when unreadable. */
    info?: Record<string, unknown>;
  }

  /** Resolves with the report; rejects when the bytes are neither glTF nor GLB. */
  export function validateBytes(
    data: Uint8Array,
    options?: ValidationOptions,
  ): Promise<ValidatorReport>;
  export function version(): string;
}
