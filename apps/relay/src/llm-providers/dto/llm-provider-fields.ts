/** D37: an API key travels as `Authorization: Bearer <apiKey>`, so it must be a header value. */
export const API_KEY_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
export const API_KEY_MESSAGE =
  'apiKey must be printable ASCII without leading or trailing spaces (it is sent as an HTTP header value)';

export { isPresent, isSet } from '../../common/patch-fields';
