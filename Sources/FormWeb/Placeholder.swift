import FluentKit
import FluentPostgresDriver
import FluentSQLiteDriver
import FormImport
import Hummingbird
import HummingbirdAuth
import HummingbirdBcrypt
import MultipartKit
import Mustache
import ServiceLifecycle
public enum WebPlaceholder {}
