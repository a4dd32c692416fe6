// The geometry of a DIN 5008 business letter, form B (the common one, for DL and C5/6 window envelopes),
// in millimetres from the top-left corner of an A4 page.

export const MM = 72 / 25.4;
export const A4 = { width: 210, height: 297 } as const;

export const DIN5008 = {
  /** Left text margin; the address block is indented 5 mm inside its field, so it aligns here too. */
  left: 25,
  right: 190,
  /** Letterhead: the sender's name and lines above the address field. */
  letterhead: { top: 18 },
  /** The company's logo: scaled into this box at the letterhead's top right, clear of the information block. */
  logo: { right: 190, top: 10, width: 50, height: 25 },
  /** The address field (85 × 45 mm at 20 mm / 45 mm) shows through the envelope window. */
  addressField: { left: 20, top: 45, width: 85, height: 45 },
  /** Return address (Rücksendeangabe): the last line of the 17.7 mm note zone, just above the address. */
  returnAddressBaseline: 61.2,
  /** First line of the address zone (27.3 mm, six lines). */
  addressFirstBaseline: 66.5,
  addressLines: 6,
  /** Information block to the right of the address field. */
  infoBlock: { left: 125, valueLeft: 157, firstBaseline: 52 },
  /** The subject starts two blank lines below the address field. */
  subjectBaseline: 101.5,
  /** One line of 12 pt: DIN 5008 spacing "1". */
  line: 4.23,
  /** Text of later pages starts here; text on any page ends above the footer. */
  continuationTop: 25,
  textBottom: 268,
  /** Page numbers sit between the text and the footer's rule. */
  pageNumberBaseline: 271,
  /** The footer: first and last baseline; six lines of 7 pt fit, more are set smaller, never dropped. */
  footerTop: 276.5,
  footerBottom: 291.5,
  /** Fold marks for a DL envelope and the punch mark in the middle. */
  foldMarks: [105, 210],
  punchMark: 148.5,
} as const;
