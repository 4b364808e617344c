package p4hlsv1

import _ "embed"

// OpenAPI is the service's OpenAPI (Swagger 2.0) document, generated from
// compiler.proto and compiler.yaml; the server serves it at /openapi.json.
//
//go:embed compiler.swagger.json
var OpenAPI []byte
