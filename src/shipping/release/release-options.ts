// What happens to a new invoice right after it is created: shipped by the service (autosend), taken as
// shipped by the client (autoskip), or left a draft. Shared by the REST create and the push.

export interface ReleaseOptions {
  autosend?: boolean | null;
  autoskip_shipping?: boolean | null;
}

export interface ReleaseDefaults {
  autosend: boolean;
  autoskipShipping: boolean;
}

/**
 * A request's option overrides the company's defaults — both of them: autosend=true also sets aside a
 * company's autoskip, and the other way round.
 */
export function resolveRelease(options: ReleaseOptions | null | undefined, defaults: ReleaseDefaults | null): { autosend: boolean; autoskip: boolean } {
  const autoskip = options?.autoskip_shipping ?? (options?.autosend ? false : (defaults?.autoskipShipping ?? false));
  const autosend = options?.autosend ?? (options?.autoskip_shipping ? false : (defaults?.autosend ?? false));
  return { autosend, autoskip };
}
