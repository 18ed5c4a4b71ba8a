import shared from '@agp/eslint-config';

// The shared, type-aware rules of every workspace (STYLE § 11), on the console's .ts and .tsx.
export default shared.createEslintConfig(import.meta.dirname);
