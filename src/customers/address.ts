// The customer's postal address as one text: a line per part, empty parts skipped.
export interface AddressParts {
  addressLine1: string;
  addressLine2: string | null;
  addressLine3: string;
  addressLine4: string | null;
  zip: string;
  city: string;
  countryCode: string;
}

export function composeAddress(parts: AddressParts): string {
  const cityLine = [parts.zip, parts.city].filter(Boolean).join(' ');
  return [parts.addressLine1, parts.addressLine2, parts.addressLine3, parts.addressLine4, cityLine, parts.countryCode]
    .map((line) => line?.trim())
    .filter((line): line is string => Boolean(line))
    .join('\n');
}
