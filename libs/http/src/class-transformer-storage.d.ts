// class-transformer ships its metadata storage (which @Type writes) without a declaration at the
// path it is loaded from; class-validator-jsonschema needs it to follow nested types.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
