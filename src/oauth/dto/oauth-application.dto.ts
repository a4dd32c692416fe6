import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, MaxLength } from 'class-validator';
import { RequiredText } from '../../common/fields.js';

/** POST /api/v1/oauth_applications (JSON, or a form with `redirect_uris[]=…`). */
export class CreateOAuthApplicationDto {
  @RequiredText(100, 'ERP middleware (production)') readonly name!: string;

  @ApiProperty({
    type: [String],
    example: ['https://middleware.example.com/oauth/callback'],
    description: 'exact-match redirect URIs (https; http only for localhost)',
  })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @IsArray({ message: 'redirect_uris must be a list of URLs' })
  @ArrayMinSize(1, { message: 'redirect_uris needs at least one URL' })
  @ArrayMaxSize(10, { message: 'redirect_uris takes at most 10 URLs' })
  @IsString({ each: true, message: 'each of redirect_uris must be a URL' })
  @MaxLength(2000, { each: true })
  readonly redirect_uris!: string[];
}
