import { plainToInstance } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, ValidateIf, validate } from 'class-validator';

import { PatchType, isPresent } from './patch-type';

class CreateThingDto {
  @IsString()
  @Length(1, 20)
  name: string;

  @IsOptional()
  @IsString()
  description?: string;

  @ValidateIf(isPresent)
  @IsInt()
  timeoutMs?: number;
}

class UpdateThingDto extends PatchType(CreateThingDto) {}

async function invalidFields(body: object): Promise<string[]> {
  const errors = await validate(plainToInstance(UpdateThingDto, body), {
    whitelist: true,
    forbidNonWhitelisted: true,
  });
  return errors.map((e) => e.property);
}

describe(PatchType.name, () => {
  it('should accept an empty body when every field may be absent', async () => {
    expect(await invalidFields({})).toEqual([]);
  });

  it('should validate a present field as the create DTO does', async () => {
    expect(await invalidFields({ name: '', timeoutMs: 'soon' })).toEqual(['name', 'timeoutMs']);
    expect(await invalidFields({ name: 'ok', timeoutMs: 5 })).toEqual([]);
  });

  it('should refuse null when the field is required at creation', async () => {
    expect(await invalidFields({ name: null })).toEqual(['name']);
  });

  it('should accept null when the field is optional at creation (it clears it)', async () => {
    expect(await invalidFields({ description: null })).toEqual([]);
  });

  it('should refuse null when the create DTO validates a present optional field', async () => {
    expect(await invalidFields({ timeoutMs: null })).toEqual(['timeoutMs']);
  });

  it('should refuse a property when the create DTO does not declare it', async () => {
    expect(await invalidFields({ other: 1 })).toEqual(['other']);
  });
});
