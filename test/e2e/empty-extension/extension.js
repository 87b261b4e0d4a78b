// The activation floor for `npm run bench -- activation`: nothing to load, nothing to do.
'use strict';
/* global exports */
exports.activate = () => undefined;
exports.deactivate = () => undefined;
