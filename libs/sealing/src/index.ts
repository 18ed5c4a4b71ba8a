export { SecretSealer, SecretSealerOptions } from './secret-sealer';
