import ArgumentParser
import FormWeb
print("placeholder")
