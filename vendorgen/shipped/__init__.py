"""The files vendorgen copies into the user's package (vendorgen.package.files); vendorgen itself imports only the server's definition_hashes."""
