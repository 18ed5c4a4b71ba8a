// Side-effect module: registers every built-in group.
import { addBuiltins } from './registry';
import { STRING_BUILTINS } from './strings';
import { UNITS_BUILTINS } from './units';

addBuiltins(STRING_BUILTINS);
addBuiltins(UNITS_BUILTINS);
import { OBJECT_BUILTINS } from './objects';

addBuiltins(OBJECT_BUILTINS);
import { ENCODING_BUILTINS } from './encoding';

addBuiltins(ENCODING_BUILTINS);
import { REGEX_BUILTINS } from './regex';

addBuiltins(REGEX_BUILTINS);
import { CRYPTO_BUILTINS } from './crypto';
import { NET_BUILTINS } from './net';

addBuiltins(NET_BUILTINS);
addBuiltins(CRYPTO_BUILTINS);
import { MISC_BUILTINS } from './misc';

addBuiltins(MISC_BUILTINS);
import { TIME_BUILTINS } from './time';

addBuiltins(TIME_BUILTINS);
import { PATCH_BUILTINS } from './patch';

addBuiltins(PATCH_BUILTINS);
import { JWT_BUILTINS } from './jwt';

addBuiltins(JWT_BUILTINS);
import { AWS_BUILTINS } from './aws';

addBuiltins(AWS_BUILTINS);
import { GRAPHQL_BUILTINS } from './graphql';

addBuiltins(GRAPHQL_BUILTINS);
import { X509_BUILTINS } from './x509';

addBuiltins(X509_BUILTINS);
import { JSONSCHEMA_BUILTINS } from './jsonschema';

addBuiltins(JSONSCHEMA_BUILTINS);
import { TEMPLATE_BUILTINS } from './template';

addBuiltins(TEMPLATE_BUILTINS);
import { AGP_DETECT_BUILTINS, AGP_DETECT_DECLS } from './agp-detect';
import { BUILTIN_DECLS } from './decls';

// The platform's own built-ins (E16): registered with their types, beside OPA's.
addBuiltins(AGP_DETECT_BUILTINS);
Object.assign(BUILTIN_DECLS, AGP_DETECT_DECLS);
