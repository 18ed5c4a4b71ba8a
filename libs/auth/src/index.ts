export * from './public.decorator';
