// The postal provider port: where letters go to be printed and posted. The default collects them in
// print batches for companies that print themselves; an HTTP print-and-mail service is one more class
// (submit = one POST with the PDF and the reference as idempotency key) and its line in postal-providers.ts.

export interface PostalLetter {
  /** Idempotency key (the shipment id): handing the same reference over twice makes one letter. */
  reference: string;
  companyId: string;
  /** The company's business day (its time zone): the print batch the letter belongs to. */
  day: string;
  /** For the manifest: "Rechnung 2026-001", "Mahnung 2026-001". */
  description: string;
  /** The window address, line by line. */
  recipient: string[];
  pdf: Uint8Array;
  pages: number;
}

export interface PostalReceipt {
  provider: string;
  /** The provider's id of the letter (batch and position for the print batch). */
  providerId: string;
}

/** A provider's refusal; permanent means that submitting the same letter again cannot succeed. */
export class PostalError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'PostalError';
  }
}

export abstract class PostalProvider {
  abstract readonly name: string;
  /** Hands one letter over. Must be idempotent by reference: a retried delivery submits again. */
  abstract submit(letter: PostalLetter): Promise<PostalReceipt>;
}
