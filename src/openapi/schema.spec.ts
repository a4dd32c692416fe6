// The compile-time half runs in `npm run typecheck`: every `@ts-expect-error` below must meet an error,
// so a serializer that strays from its schema cannot compile. The run-time half checks the document's form.
import type { Customer } from '../customers/customer.entity.js';
import { CustomerReferenceSchema } from '../customers/customer.serializer.js';
import { dateTimeProperty, enumProperty, integerProperty, textProperty } from './properties.js';
import { arrayOf, component, openApiComponents, type Wire, wrapped } from './schema.js';

const Line = component('SpecLine', { text: textProperty() });
const Sheet = component(
  'SpecSheet',
  {
    title: textProperty(),
    pages: integerProperty({ nullable: true }),
    kind: enumProperty(['a', 'b']),
    note: textProperty(),
    lines: arrayOf(Line, { description: 'In order' }),
    first: wrapped(Line, { nullable: true }),
  },
  { description: 'A test sheet', optional: ['note'] },
);

/** A serializer as the features write them: the return type is the schema's. */
function serializeSheet(title: string): Wire<typeof Sheet> {
  return { title, pages: null, kind: 'a', lines: [{ text: 'x' }], first: null };
}

describe('Wire<schema>: the type a serializer must return', () => {
  it('rejects a field the schema lacks, a missing required field, a wrong type, null where not nullable, a value outside the enum', () => {
    // @ts-expect-error `colour` is not in the schema
    const extra: Wire<typeof Sheet> = { title: 't', pages: 1, kind: 'a', lines: [], first: null, colour: 'red' };
    // @ts-expect-error `first` is required (nullable, but present)
    const missing: Wire<typeof Sheet> = { title: 't', pages: 1, kind: 'a', lines: [] };
    // @ts-expect-error `pages` is an integer
    const wrongType: Wire<typeof Sheet> = { title: 't', pages: '1', kind: 'a', lines: [], first: null };
    // @ts-expect-error `title` is not nullable
    const nullTitle: Wire<typeof Sheet> = { title: null, pages: 1, kind: 'a', lines: [], first: null };
    // @ts-expect-error `kind` is 'a' or 'b'
    const outsideEnum: Wire<typeof Sheet> = { title: 't', pages: 1, kind: 'c', lines: [], first: null };
    // @ts-expect-error a nested component's fields are checked too
    const nested: Wire<typeof Sheet> = { title: 't', pages: 1, kind: 'a', lines: [{ text: 'x', bold: true }], first: null };
    expect([extra, missing, wrongType, nullTitle, outsideEnum, nested]).toHaveLength(6);
    expect(serializeSheet('t')).toEqual({ title: 't', pages: null, kind: 'a', lines: [{ text: 'x' }], first: null });
  });

  it('holds for the real schemas: a customer reference with a field too many does not compile', () => {
    const reference = (customer: Customer): Wire<typeof CustomerReferenceSchema> => ({
      id: customer.id,
      external_id: null,
      name: customer.name,
      customer_number: null,
      address: '',
      created_at: '',
      updated_at: '',
      // @ts-expect-error the schema has no phone
      phone: customer.phone,
    });
    expect(reference).toBeInstanceOf(Function);
  });
});

describe('openApiComponents', () => {
  it('states each component once, nested ones as $ref, required without the optional fields', () => {
    const components = openApiComponents([Sheet]);
    expect(Object.keys(components).sort()).toEqual(['SpecLine', 'SpecSheet']);
    expect(components.SpecSheet).toEqual({
      type: 'object',
      description: 'A test sheet',
      properties: {
        title: { type: 'string' },
        pages: { type: 'integer', nullable: true },
        kind: { type: 'string', enum: ['a', 'b'] },
        note: { type: 'string' },
        lines: { type: 'array', items: { $ref: '#/components/schemas/SpecLine' }, description: 'In order' },
        // OpenAPI 3.0.3: `nullable` widens only the `type` beside it, so a nullable component is the component or null.
        first: { oneOf: [{ $ref: '#/components/schemas/SpecLine' }, { type: 'object', nullable: true, enum: [null] }] },
      },
      required: ['title', 'pages', 'kind', 'lines', 'first'],
    });
  });

  it('says nullable only where it is true; a nullable enum lists null', () => {
    expect(dateTimeProperty({ nullable: true })).toMatchObject({ format: 'date-time', nullable: true });
    expect(dateTimeProperty()).not.toHaveProperty('nullable');
    expect(enumProperty(['x'], { nullable: true }).enum).toEqual(['x', null]);
  });
});
