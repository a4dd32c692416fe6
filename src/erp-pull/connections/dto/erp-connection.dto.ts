import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { OptionalBoolean, OptionalEnum, OptionalInteger, OptionalText, RequiredText } from '../../../common/fields.js';
import { AUTH_METHODS, type AuthMethod } from '../../../connectors/odata-client.factory.js';
import { TOKEN_ENDPOINT_AUTH_METHODS, type TokenEndpointAuthMethod } from '../erp-connection.entity.js';
import { PULL_ENTITIES, type PullEntity } from '../../mapping/erp-mapping.js';

/** An OData property, or a path through navigation properties: to_Address/CityName. */
const PROPERTY_PATH = /^[A-Za-z_][A-Za-z0-9_]{0,127}(\/[A-Za-z_][A-Za-z0-9_]{0,127}){0,3}$/;
const PATH_MESSAGE = '$property must name OData properties (Name or Navigation/Name)';

const Path = () => [IsOptional(), IsString(), Matches(PROPERTY_PATH, { message: PATH_MESSAGE })];
const Paths = () => [
  IsOptional(),
  IsArray(),
  ArrayMinSize(1),
  ArrayMaxSize(8),
  IsString({ each: true }),
  Matches(PROPERTY_PATH, { each: true, message: PATH_MESSAGE }),
];
const apply = (decorators: PropertyDecorator[]) => applyDecorators(...decorators);
// One line of $filter: the control characters are what it refuses.
// eslint-disable-next-line no-control-regex -- the control characters are the point of the pattern
const ONE_LINE = /^[^\u0000-\u001f]*$/;
const Filter = () =>
  apply([IsOptional(), IsString(), MaxLength(2000), Matches(ONE_LINE, { message: '$property must be one line of OData $filter' })]);

export class CustomerFieldsDto {
  @ApiPropertyOptional() @apply(Path()) readonly external_id?: string;
  @ApiPropertyOptional({ type: [String] }) @apply(Paths()) readonly name?: string[];
  @ApiPropertyOptional() @apply(Path()) readonly street?: string | null;
  @ApiPropertyOptional() @apply(Path()) readonly house_number?: string | null;
  @ApiPropertyOptional() @apply(Path()) readonly zip?: string | null;
  @ApiPropertyOptional() @apply(Path()) readonly city?: string | null;
  @ApiPropertyOptional() @apply(Path()) readonly country?: string | null;
  @ApiPropertyOptional() @apply(Path()) readonly email?: string | null;
  @ApiPropertyOptional() @apply(Path()) readonly phone?: string | null;
  @ApiPropertyOptional() @apply(Path()) readonly additional_number?: string | null;
}

export class ReceivableFieldsDto {
  @ApiPropertyOptional({ type: [String] }) @apply(Paths()) readonly external_id?: string[];
  @ApiPropertyOptional() @apply(Path()) readonly customer?: string;
  @ApiPropertyOptional() @apply(Path()) readonly amount?: string;
  @ApiPropertyOptional() @apply(Path()) readonly currency?: string | null;
  @ApiPropertyOptional({ type: [String] }) @apply(Paths()) readonly invoice_date?: string[];
  @ApiPropertyOptional() @apply(Path()) readonly due_date?: string | null;
  @ApiPropertyOptional({ type: [String] }) @apply(Paths()) readonly invoice_number?: string[];
  @ApiPropertyOptional() @apply(Path()) readonly additional_number?: string | null;
  @ApiPropertyOptional() @apply(Path()) readonly is_cleared?: string;
  @ApiPropertyOptional() @apply(Path()) readonly clearing_document?: string | null;
  @ApiPropertyOptional() @apply(Path()) readonly dunning_block?: string | null;
}

class EntityMappingDto {
  @ApiPropertyOptional({ example: 'A_BusinessPartner' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z_][A-Za-z0-9_.]{0,127}$/, { message: 'entity_set must be an OData entity set name' })
  readonly entity_set?: string;
  @ApiPropertyOptional({ type: [String] }) @apply(Paths()) readonly key?: string[];
  @ApiPropertyOptional({ description: 'always part of $filter' }) @Filter() readonly filter?: string | null;
}

export class CustomerMappingDto extends EntityMappingDto {
  @ApiPropertyOptional() @apply(Path()) readonly change_date?: string | null;
  @ApiPropertyOptional() @apply(Path()) readonly creation_date?: string | null;
  @ApiPropertyOptional({ type: CustomerFieldsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CustomerFieldsDto)
  readonly fields?: CustomerFieldsDto;
}

export class ReceivableMappingDto extends EntityMappingDto {
  @ApiPropertyOptional() @Filter() readonly open_filter?: string;
  @ApiPropertyOptional() @Filter() readonly cleared_filter?: string;
  @ApiPropertyOptional({
    nullable: true,
    description: 'null: the ERP has no change date; every pull reads all open items and reconciles the rest',
  })
  @apply(Path())
  readonly change_date?: string | null;
  @ApiPropertyOptional({
    nullable: true,
    description: 'null: the ERP has no clearing date; every pull reads all open items and asks for those that left the list',
  })
  @apply(Path())
  readonly clearing_date?: string | null;
  @ApiPropertyOptional({ type: ReceivableFieldsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ReceivableFieldsDto)
  readonly fields?: ReceivableFieldsDto;
}

export class MappingDto {
  @ApiPropertyOptional({ type: CustomerMappingDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CustomerMappingDto)
  readonly customers?: CustomerMappingDto;
  @ApiPropertyOptional({ type: ReceivableMappingDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ReceivableMappingDto)
  readonly receivables?: ReceivableMappingDto;
}

const SERVICE_PATH = /^\/[A-Za-z0-9_\-.;=~/]{0,500}$/;

export class ServicePathsDto {
  @ApiPropertyOptional({ example: '/sap/opu/odata/sap/API_BUSINESS_PARTNER/' })
  @IsOptional()
  @Matches(SERVICE_PATH, { message: 'service_paths[customers] must be a path starting with /' })
  readonly customers?: string;
  @ApiPropertyOptional({ example: '/sap/opu/odata/sap/API_OPLACCTGDOCITEMCUBE_SRV/' })
  @IsOptional()
  @Matches(SERVICE_PATH, { message: 'service_paths[receivables] must be a path starting with /' })
  readonly receivables?: string;
}

/** Secrets are taken as sent (no trimming); null removes one. */
const Secret = (maxLength: number) =>
  apply([ApiPropertyOptional({ type: String, writeOnly: true, nullable: true }), IsOptional(), IsString(), MaxLength(maxLength)]);

export class CreateErpConnectionDto {
  @RequiredText(255, 'S/4HANA Cloud') readonly name!: string;
  @RequiredText(2000, 'https://my123456-api.s4hana.cloud.sap') readonly base_url!: string;
  @OptionalEnum(['v2', 'v4'], 'OData version of the services (default v2)') readonly odata_version?: 'v2' | 'v4' | null;

  @ApiProperty({ enum: AUTH_METHODS })
  @IsIn(AUTH_METHODS, { message: `auth_method must be one of ${AUTH_METHODS.join(', ')}` })
  readonly auth_method!: AuthMethod;

  @OptionalText(2000, 'https://my123456-api.s4hana.cloud.sap/sap/bc/sec/oauth2/token') readonly token_url?: string | null;
  @OptionalText(255) readonly client_id?: string | null;
  @OptionalEnum(
    TOKEN_ENDPOINT_AUTH_METHODS,
    'How the client authenticates at the token endpoint (RFC 6749 §2.3.1): client_secret_post (default: form fields) or client_secret_basic (HTTP Basic); never both',
  )
  readonly token_endpoint_auth_method?: TokenEndpointAuthMethod | null;
  @OptionalText(1000) readonly oauth_scope?: string | null;
  @OptionalText(255) readonly username?: string | null;
  @OptionalText(65_536, '-----BEGIN CERTIFICATE-----…') readonly client_certificate?: string | null;
  @OptionalText(262_144, '-----BEGIN CERTIFICATE-----…') readonly ca_certificates?: string | null;

  @Secret(4096) readonly client_secret?: string | null;
  @Secret(4096) readonly password?: string | null;
  @Secret(65_536) readonly private_key?: string | null;
  @Secret(4096) readonly private_key_passphrase?: string | null;

  @OptionalText(3, '100') @Matches(/^\d{3}$/, { message: 'sap_client must be three digits' }) readonly sap_client?: string | null;
  @OptionalText(100, '0 */2 * * *') readonly schedule?: string | null;
  @OptionalBoolean() readonly enabled?: boolean;

  @ApiPropertyOptional({ type: [String], enum: PULL_ENTITIES, example: ['customers', 'receivables'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'entities must name at least one of customers, receivables' })
  @ArrayUnique()
  @IsIn(PULL_ENTITIES, { each: true, message: `entities must be a list of ${PULL_ENTITIES.join(', ')}` })
  readonly entities?: PullEntity[];

  @ApiPropertyOptional({ type: ServicePathsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ServicePathsDto)
  readonly service_paths?: ServicePathsDto;
  @ApiPropertyOptional({ type: MappingDto, description: 'overrides of the SAP default mapping; replaces the stored overrides' })
  @IsOptional()
  @ValidateNested()
  @Type(() => MappingDto)
  readonly mapping?: MappingDto | null;

  @OptionalText(3, 'EUR') @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code' }) readonly currency?: string | null;
  @OptionalInteger(1, 5000) readonly page_size?: number | null;
  /** After each pull, fetch the PDF of new invoices' billing documents (API_BILLING_DOCUMENT_SRV GetPDF); default false. */
  @OptionalBoolean() readonly fetch_invoice_pdfs?: boolean;
}

export class UpdateErpConnectionDto extends PartialType(CreateErpConnectionDto, { skipNullProperties: false }) {}

export class StartPullDto {
  @OptionalEnum(
    ['incremental', 'full'],
    'incremental (default): changes since the watermark; full: every customer and open item again, and a reconciliation of the open invoices the ERP no longer lists as open',
  )
  readonly mode?: 'incremental' | 'full' | null;
}
