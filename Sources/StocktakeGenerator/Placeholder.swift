enum GeneratorPlaceholder {}
